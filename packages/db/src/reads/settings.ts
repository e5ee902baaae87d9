import type { Executor } from './executor.js';

/** Platform-wide switches, written by console, read by the services they govern. */
export interface PlatformSettings {
  conciergeKillSwitch: boolean;
}

export const PLATFORM_SETTING_KEYS = { conciergeKillSwitch: 'concierge_kill_switch' } as const;

/** The kill switch's stored value as a switch: on only when set to true; unset or anything else is off. */
export const killSwitchOn = (value: unknown): boolean => value === true;

export async function readPlatformSettings(db: Executor): Promise<PlatformSettings> {
  const rows = await db.selectFrom('platform_settings').select(['key', 'value']).execute();
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return { conciergeKillSwitch: killSwitchOn(byKey.get(PLATFORM_SETTING_KEYS.conciergeKillSwitch)) };
}
