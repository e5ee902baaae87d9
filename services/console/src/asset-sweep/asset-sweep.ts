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
 *   it (kept in memory: a restart only postpones deletions by one grace period). A look that finds it
 *   referenced forgets that sighting at once, even if the pass then fails; and a file written after its
 *   first sighting (the same bytes uploaded again: keys are content-addressed) may have been referenced
 *   and replaced between two looks, so its sighting starts again.
 * - Its last write is that old. An upload stores its files before its item points at them, so a young
 *   unreferenced file may be one about to be referenced. The grace period's margin over the URL life
 *   covers the time between an upload's write and its row.
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

  /** One pass over the store; the keys it deleted. An aborted `signal` ends it between two files. */
  async sweep(signal?: AbortSignal): Promise<string[]> {
    const listed = new Set<string>();
    const deleted: string[] = [];
    let batch: StoredFile[] = [];
    const settle = async () => {
      deleted.push(...(await this.sweepBatch(batch, signal)));
      batch = [];
    };
    for await (const file of this.deps.storage.list()) {
      signal?.throwIfAborted();
      if (!parseAssetStorageKey(file.key)) continue; // not a file an upload wrote
      listed.add(file.key);
      batch.push(file);
      if (batch.length === BATCH) await settle();
    }
    await settle();
    // Forget files gone meanwhile (deleted by hand, or by another replica).
    for (const key of this.unreferencedSince.keys()) if (!listed.has(key)) this.unreferencedSince.delete(key);
    return deleted;
  }

  private async sweepBatch(files: StoredFile[], signal?: AbortSignal): Promise<string[]> {
    const referenced = await findReferencedKeys(
      this.deps.db,
      files.map((file) => file.key),
    );
    // Taken after the query: every reference the query missed had ended by then.
    const seenAt = this.deps.now().getTime();
    const due: string[] = [];
    for (const file of files) {
      const since = this.unreferencedSince.get(file.key);
      if (referenced.has(file.key)) this.unreferencedSince.delete(file.key);
      else if (since === undefined || file.lastModified.getTime() > since) this.unreferencedSince.set(file.key, seenAt);
      else if (seenAt - since >= this.graceMs && this.oldEnough(file, seenAt)) due.push(file.key);
    }
    const deleted: string[] = [];
    for (const key of due) {
      signal?.throwIfAborted();
      // Looked at again just before: the same bytes uploaded since the listing made the file young.
      const current = await this.deps.storage.stat(key);
      if (current && !this.oldEnough(current, this.deps.now().getTime())) continue;
      this.unreferencedSince.delete(key);
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
 * the next one tries again. `stop` ends a pass under way at its next file and waits for it (one call to
 * the database or the store at most), so the pass never outlives the pool nor holds up a shutdown.
 */
export function startAssetSweep(deps: SweepDeps, options: { graceMs: number; intervalMs: number }): { stop(): Promise<void> } {
  if (options.intervalMs === 0) return { stop: async () => {} };
  const sweep = new AssetSweep(deps, options.graceMs);
  const stopping = new AbortController();
  let running: Promise<void> | null = null;
  const run = async () => {
    try {
      const deleted = await sweep.sweep(stopping.signal);
      if (deleted.length) deps.logger.info({ deleted: deleted.length }, 'deleted model files no item references');
    } catch (err) {
      if (!stopping.signal.aborted) deps.logger.error({ err }, 'asset sweep failed');
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
      stopping.abort();
      await running;
    },
  };
}
