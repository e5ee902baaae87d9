import { createHash, randomBytes } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetStorageKey, type AssetKind, type AssetStorage } from '@partner/assets';
import { startS3TestServer, type S3TestServer } from '@partner/assets/testing';
import { deleteItem } from '../menu/menu.service.js';
import { settleModelUpload, startModelUpload } from '../models/models.repository.js';
import { useAppHarness } from '../testing/app-harness.js';
import { seedItem, seedRestaurant } from '../testing/factories.js';
import { AssetSweep, startAssetSweep } from './asset-sweep.js';

const GRACE_MS = 2 * 3600 * 1000;
const h = useAppHarness();
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(() => s3.close());

/** A sweep on `storage` whose clock the test moves (real time plus an offset). */
function sweepOn(storage: AssetStorage) {
  let offsetMs = 0;
  const sweep = new AssetSweep({ ...h.deps, storage, now: () => new Date(Date.now() + offsetMs) }, GRACE_MS);
  return { sweep: () => sweep.sweep(), at: (ms: number) => void (offsetMs = ms) };
}

async function storeFile(storage: AssetStorage, kind: AssetKind = 'glb'): Promise<string> {
  const bytes = randomBytes(32);
  const key = assetStorageKey(createHash('sha256').update(bytes).digest('hex'), kind);
  await storage.put(key, bytes);
  return key;
}

/** An item whose ready model is these three files, written as an upload writes it. */
async function itemWithModel(keys: { glb: string; usdz: string; thumbnail: string }) {
  const restaurant = await seedRestaurant(h.deps);
  const item = await seedItem(h.deps, restaurant.id);
  await pointModelAt(item.id, keys);
  return item;
}

async function pointModelAt(itemId: string, keys: { glb: string; usdz: string; thumbnail: string }) {
  const started = await startModelUpload(h.deps.db, itemId);
  await settleModelUpload(h.deps.db, itemId, started!.model_updated_at!, {
    model_status: 'ready',
    model_failure_reason: null,
    model_glb_key: keys.glb,
    model_usdz_key: keys.usdz,
    model_thumbnail_key: keys.thumbnail,
  });
}

const modelFiles = async (storage: AssetStorage) => ({
  glb: await storeFile(storage, 'glb'),
  usdz: await storeFile(storage, 'usdz'),
  thumbnail: await storeFile(storage, 'png'),
});
const exists = async (storage: AssetStorage, key: string) => (await storage.stat(key)) !== null;

describe.each([
  ['local directory', () => h.deps.storage],
  ['S3 (s3rver)', () => s3.storage()],
])('AssetSweep on %s', (_name, storageOf) => {
  let storage: AssetStorage;
  beforeAll(() => {
    storage = storageOf();
  });

  it('never deletes the files of a live item, however old', async () => {
    const keys = await modelFiles(storage);
    await itemWithModel(keys);
    const { sweep, at } = sweepOn(storage);
    for (const offset of [0, GRACE_MS, 3 * GRACE_MS, 10 * GRACE_MS]) {
      at(offset);
      expect(await sweep()).toEqual([]);
    }
    for (const key of Object.values(keys)) expect(await exists(storage, key)).toBe(true);
  });

  it('deletes a replaced model’s files once they have been unreferenced for the grace period, not before', async () => {
    const old = await modelFiles(storage);
    const item = await itemWithModel(old);
    const current = await modelFiles(storage);
    await pointModelAt(item.id, current);
    const { sweep, at } = sweepOn(storage);
    // The files are already older than the grace period: what counts is how long they are unreferenced,
    // since a URL signed just before the replacement lives on.
    at(3 * GRACE_MS);
    expect(await sweep()).toEqual([]);
    at(4 * GRACE_MS - 1000);
    expect(await sweep()).toEqual([]);
    expect(await exists(storage, old.glb)).toBe(true);
    at(4 * GRACE_MS);
    expect((await sweep()).sort()).toEqual(Object.values(old).sort());
    for (const key of Object.values(old)) expect(await exists(storage, key)).toBe(false);
    for (const key of Object.values(current)) expect(await exists(storage, key)).toBe(true);
  });

  it('deletes a deleted item’s files, and keeps a file still shared with a live item', async () => {
    const shared = await storeFile(storage, 'png');
    const gone = await itemWithModel({ glb: await storeFile(storage), usdz: await storeFile(storage, 'usdz'), thumbnail: shared });
    const kept = await itemWithModel({ glb: await storeFile(storage), usdz: await storeFile(storage, 'usdz'), thumbnail: shared });
    const goneRow = await h.deps.db.selectFrom('items').selectAll().where('id', '=', gone.id).executeTakeFirstOrThrow();
    await deleteItem(h.deps, gone.id);
    const { sweep, at } = sweepOn(storage);
    at(GRACE_MS);
    await sweep();
    at(2 * GRACE_MS);
    const deleted = await sweep();
    expect(deleted).toEqual(expect.arrayContaining([goneRow.model_glb_key, goneRow.model_usdz_key]));
    expect(deleted).not.toContain(shared);
    expect(await exists(storage, shared)).toBe(true);
    const keptRow = await h.deps.db.selectFrom('items').selectAll().where('id', '=', kept.id).executeTakeFirstOrThrow();
    expect(await exists(storage, keptRow.model_glb_key!)).toBe(true);
  });

  it('keeps a file an upload has just written before its item points at it, then lets the item have it', async () => {
    const { sweep, at } = sweepOn(storage);
    const keys = await modelFiles(storage);
    // The upload's files are stored and its row is not written yet: the sweep sees them unreferenced.
    // They stay for a grace period from that sighting (and from their write): the upload's time to
    // point its item at them.
    expect(await sweep()).toEqual([]);
    at(GRACE_MS - 1000);
    expect(await sweep()).toEqual([]);
    await itemWithModel(keys);
    at(5 * GRACE_MS);
    expect(await sweep()).toEqual([]);
    for (const key of Object.values(keys)) expect(await exists(storage, key)).toBe(true);
  });

  it('leaves alone what is not an uploaded model file', async () => {
    await storage.put('notes.txt', Buffer.from('not ours'));
    const { sweep, at } = sweepOn(storage);
    at(GRACE_MS);
    await sweep();
    at(3 * GRACE_MS);
    expect(await sweep()).not.toContain('notes.txt');
    expect(await exists(storage, 'notes.txt')).toBe(true);
  });
});

it('starts the wait again for a file written again (the same bytes uploaded anew) since it was first seen', async () => {
  const storage = h.deps.storage;
  const key = await storeFile(storage);
  const path = join(h.storageDir, key);
  const { sweep, at } = sweepOn(storage);
  // An old file, seen unreferenced now...
  const now = Date.now();
  await utimes(path, new Date(now - 3 * GRACE_MS), new Date(now - 3 * GRACE_MS));
  expect(await sweep()).toEqual([]);
  // ...uploaded again half the grace period later (the local driver's write sets the time; here it is
  // placed where that upload would have put it), by an item that has since been replaced again. Its URLs
  // may have been signed until that replacement, which no look saw: the wait starts at this look.
  await utimes(path, new Date(now + GRACE_MS / 2), new Date(now + GRACE_MS / 2));
  at(GRACE_MS);
  expect(await sweep()).toEqual([]);
  at(GRACE_MS * 1.5);
  expect(await sweep()).toEqual([]);
  at(GRACE_MS * 2);
  expect(await sweep()).toEqual([key]);
});

/** `storage` with some of its calls replaced; the rest go to it. */
const withCalls = (storage: AssetStorage, calls: Partial<AssetStorage>): AssetStorage =>
  Object.assign(Object.create(storage) as AssetStorage, calls);

it('forgets a sighting as soon as a look finds the file referenced, even when that pass then fails', async () => {
  let failing = false;
  const storage = withCalls(h.deps.storage, {
    delete: async (key) => {
      if (failing) throw new Error('the store refused');
      return h.deps.storage.delete(key);
    },
  });
  const keys = await modelFiles(storage);
  await storeFile(storage);
  const { sweep, at } = sweepOn(storage);
  // An upload's files, seen before its item points at them, and a file no one wants (whose deletion
  // will fail).
  expect(await sweep()).toEqual([]);
  const item = await itemWithModel(keys);
  // A grace period on, a pass sees the upload's files referenced, then fails deleting the other file.
  failing = true;
  at(GRACE_MS);
  await expect(sweep()).rejects.toThrow('the store refused');
  failing = false;
  // The item's model is replaced now: URLs to the old files signed a moment ago live on.
  await pointModelAt(item.id, await modelFiles(storage));
  at(GRACE_MS + 1000);
  const deletedNow = await sweep();
  for (const key of Object.values(keys)) expect(deletedNow).not.toContain(key);
  at(2 * GRACE_MS + 1000);
  expect(await sweep()).toEqual(expect.arrayContaining(Object.values(keys)));
});

it('looks at a due file once more just before deleting it, and keeps it if it was written since the listing', async () => {
  const key = await storeFile(h.deps.storage);
  const path = join(h.storageDir, key);
  const old = new Date(Date.now() - 3 * GRACE_MS);
  await utimes(path, old, old);
  // The listing a pass works from is taken before the file is uploaded again (a long pass).
  const listing = [(await h.deps.storage.stat(key))!];
  const storage = withCalls(h.deps.storage, {
    list: async function* () {
      yield* listing;
    },
  });
  const { sweep, at } = sweepOn(storage);
  expect(await sweep()).toEqual([]);
  at(GRACE_MS);
  const uploadedAgain = new Date(Date.now() + GRACE_MS); // now, on the sweep's clock
  await utimes(path, uploadedAgain, uploadedAgain);
  expect(await sweep()).toEqual([]);
  expect(await exists(h.deps.storage, key)).toBe(true);
});

it('stops a pass under way at its next file when stopped, without waiting for the rest', async () => {
  const slowListing = withCalls(h.deps.storage, {
    list: async function* () {
      for (let i = 0; i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        yield { key: assetStorageKey(i.toString(16).padStart(64, '0'), 'glb'), size: 1, lastModified: new Date() };
      }
    },
  });
  const listed = Promise.withResolvers<void>();
  const storage = withCalls(slowListing, {
    list: async function* () {
      for await (const file of slowListing.list()) {
        listed.resolve();
        yield file;
      }
    },
  });
  const running = startAssetSweep({ ...h.deps, storage }, { graceMs: GRACE_MS, intervalMs: 10 });
  await listed.promise;
  const began = performance.now();
  await running.stop();
  // The rest of the listing would take about 5 s.
  expect(performance.now() - began).toBeLessThan(2_000);
});

it('runs in the background every interval until stopped', async () => {
  const storage = s3.storage();
  const key = await storeFile(storage);
  // No grace at all: the second pass after the file's first sighting deletes it.
  const running = startAssetSweep({ ...h.deps, storage }, { graceMs: 0, intervalMs: 20 });
  try {
    await expect.poll(() => exists(storage, key), { timeout: 5_000, interval: 20 }).toBe(false);
  } finally {
    await running.stop();
  }
  const later = await storeFile(storage);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await exists(storage, later)).toBe(true);
});
