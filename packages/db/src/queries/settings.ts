import type { Executor } from './executor.js';

/** Platform-wide switches, written by console, read by the services they govern. */
export interface PlatformSettings {
  conciergeKillSwitch: boolean;
}

const KEYS = { conciergeKillSwitch: 'concierge_kill_switch' } as const;

export async function readPlatformSettings(db: Executor): Promise<PlatformSettings> {
  const rows = await db.selectFrom('platform_settings').select(['key', 'value']).execute();
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return { conciergeKillSwitch: byKey.get(KEYS.conciergeKillSwitch) === true };
}

export async function writePlatformSetting<K extends keyof PlatformSettings>(
  db: Executor,
  key: K,
  value: PlatformSettings[K],
): Promise<void> {
  await db
    .insertInto('platform_settings')
    .values({ key: KEYS[key], value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: new Date() }))
    .execute();
}
