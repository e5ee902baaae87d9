import { parseAssetStorageKey, type StoredFile } from '@partner/assets';
import type { ConsoleDeps } from '../deps.js';
import { findReferencedKeys } from './asset-sweep.repository.js';

/** Keys looked up in one query. */
const BATCH = 500;

type SweepDeps = Pick<ConsoleDeps, 'db' | 'storage' | 'logger' | 'now'>;

/**
 * Deletes model files that no item references any more (a replaced model, a deleted item, an upload
 * that failed after storing some of its files). A file goes only when both hold, each for at least the
 * grace period, which configuration keeps longer than a signed URL lives:
 *
 * - This sweep has seen it unreferenced that long ago, and at every look since. A model replaced a
 *   minute ago may have had URLs signed a minute ago; they outlive the replacement by up to their TTL.
 *   The moment it became unreferenced is written nowhere, so the sweep's own first sighting stands for
 *   it (kept in memory: a restart only postpones deletions by one grace period).
 * - Its last write is that old. An upload stores its files before its item points at them, so a young
 *   unreferenced file may be one about to be referenced; and keys are content-addressed, so a file
 *   referenced again (the same bytes uploaded again) was necessarily written again, and its age restarts.
 *   The grace period's margin over the URL life covers the time between an upload's write and its row.
 *
 * Every console replica may sweep; each decides from its own sightings, and deleting twice is harmless.
 */
export class AssetSweep {
  /** Asset keys seen unreferenced, and when first seen so. */
  private readonly unreferencedSince = new Map<string, number>();

  constructor(
    private readonly deps: SweepDeps,
    private readonly graceMs: number,
  ) {}

  /** One pass over the store; the keys it deleted. */
  async sweep(): Promise<string[]> {
    const stillUnreferenced = new Set<string>();
    const deleted: string[] = [];
    let batch: StoredFile[] = [];
    const settle = async () => {
      deleted.push(...(await this.sweepBatch(batch, stillUnreferenced)));
      batch = [];
    };
    for await (const file of this.deps.storage.list()) {
      if (!parseAssetStorageKey(file.key)) continue; // not a file an upload wrote
      batch.push(file);
      if (batch.length === BATCH) await settle();
    }
    await settle();
    // Forget files gone meanwhile (deleted by another replica) or referenced again.
    for (const key of this.unreferencedSince.keys()) if (!stillUnreferenced.has(key)) this.unreferencedSince.delete(key);
    return deleted;
  }

  private async sweepBatch(files: StoredFile[], stillUnreferenced: Set<string>): Promise<string[]> {
    const referenced = await findReferencedKeys(
      this.deps.db,
      files.map((file) => file.key),
    );
    // Taken after the query: every reference the query missed had ended by then.
    const seenAt = this.deps.now().getTime();
    const due: string[] = [];
    for (const file of files) {
      if (referenced.has(file.key)) continue;
      stillUnreferenced.add(file.key);
      const since = this.unreferencedSince.get(file.key);
      if (since === undefined) this.unreferencedSince.set(file.key, seenAt);
      else if (seenAt - since >= this.graceMs && this.oldEnough(file, seenAt)) due.push(file.key);
    }
    const deleted: string[] = [];
    for (const key of due) {
      // Looked at again just before: the same bytes uploaded since the listing made the file young.
      const current = await this.deps.storage.stat(key);
      if (current && !this.oldEnough(current, this.deps.now().getTime())) continue;
      this.unreferencedSince.delete(key);
      stillUnreferenced.delete(key);
      if (current === null) continue; // another replica was quicker
      await this.deps.storage.delete(key);
      deleted.push(key);
    }
    return deleted;
  }

  private oldEnough(file: StoredFile, at: number): boolean {
    return at - file.lastModified.getTime() >= this.graceMs;
  }
}

/**
 * Runs the sweep every `intervalMs` (not at all for 0), one pass at a time; a failed pass is logged and
 * the next one tries again. `stop` waits for a pass under way, so it never outlives the database pool.
 */
export function startAssetSweep(deps: SweepDeps, options: { graceMs: number; intervalMs: number }): { stop(): Promise<void> } {
  if (options.intervalMs === 0) return { stop: async () => {} };
  const sweep = new AssetSweep(deps, options.graceMs);
  let running: Promise<void> | null = null;
  const run = async () => {
    try {
      const deleted = await sweep.sweep();
      if (deleted.length) deps.logger.info({ deleted: deleted.length }, 'deleted model files no item references');
    } catch (err) {
      deps.logger.error({ err }, 'asset sweep failed');
    } finally {
      running = null;
    }
  };
  const timer = setInterval(() => {
    running ??= run();
  }, options.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
