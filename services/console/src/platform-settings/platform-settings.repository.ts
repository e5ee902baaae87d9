import { sql } from 'kysely';
import { type Executor, PLATFORM_SETTING_KEYS, type PlatformSettings } from '@partner/db';

export async function writePlatformSetting<K extends keyof PlatformSettings>(
  db: Executor,
  key: K,
  value: PlatformSettings[K],
): Promise<void> {
  await db
    .insertInto('platform_settings')
    .values({ key: PLATFORM_SETTING_KEYS[key], value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: sql<Date>`now()` }))
    .execute();
}
