import { createHash } from 'node:crypto';
import { readMenuVersion } from './items.js';
import type { Executor } from './executor.js';

/** The menu's strong ETag, from one aggregate query: shared by the menu route and menu.updated events. */
export async function menuEtag(
  db: Executor,
  restaurantId: string,
): Promise<{ etag: string; version: Awaited<ReturnType<typeof readMenuVersion>> }> {
  const version = await readMenuVersion(db, restaurantId);
  return { etag: `"${createHash('sha256').update(JSON.stringify(version)).digest('base64url').slice(0, 27)}"`, version };
}
