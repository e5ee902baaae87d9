import type { Executor } from '@partner/db';

/**
 * Which of these storage keys a live item's model points at (its glb, usdz or thumbnail). A deleted
 * item's files are no one's: no new URL to them is signed.
 */
export async function findReferencedKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('items')
    .select(['model_glb_key', 'model_usdz_key', 'model_thumbnail_key'])
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('model_glb_key', 'in', keys), eb('model_usdz_key', 'in', keys), eb('model_thumbnail_key', 'in', keys)]))
    .execute();
  const wanted = new Set(keys);
  return new Set(
    rows
      .flatMap((row) => [row.model_glb_key, row.model_usdz_key, row.model_thumbnail_key])
      .filter((key) => key !== null && wanted.has(key)) as string[],
  );
}
