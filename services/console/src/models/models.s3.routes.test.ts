import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } from '@partner/sample-dish';
import { freePort } from '@partner/testing';
import { createApp } from '../app.js';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { seedItem, seedRestaurant } from '../testing/factories.js';

// Uploads with ASSET_STORAGE_DRIVER=s3: the files land in the bucket (a real S3-protocol server,
// driven by the real SDK) under the same content-addressed keys the catalog signs URLs for.
const h = useAppHarness({ storage: 's3' });
let files: Record<'glb' | 'usdz' | 'thumbnail', Buffer>;
beforeAll(() => {
  files = { glb: createSampleDishGlb(), usdz: createSampleDishUsdz(), thumbnail: createSampleThumbnailPng(64) };
});

const upload = (app: typeof h.app, itemId: string) => {
  const req = request(app).put(`/console/items/${itemId}/model`).set(h.admin);
  for (const [name, data] of Object.entries(files)) req.attach(name, data, `${name}.bin`);
  return req;
};
const newItem = async () => seedItem(h.deps, (await seedRestaurant(h.deps)).id);
const itemRow = (id: string) => h.deps.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('PUT /console/items/:id/model on the S3 driver', () => {
  it('stores the checked files in the bucket under their content hash', async () => {
    const item = await newItem();
    await upload(h.app, item.id).expect(200);
    const row = await itemRow(item.id);
    expect(row.model_status).toBe('ready');
    for (const [key, data] of [
      [row.model_glb_key!, files.glb],
      [row.model_usdz_key!, files.usdz],
      [row.model_thumbnail_key!, files.thumbnail],
    ] as const) {
      expect(key.split('.')[0]).toBe(sha256(data));
      expect((await h.deps.storage.stat(key))?.size).toBe(data.length);
      expect((await buffer(await h.deps.storage.read(key))).equals(data)).toBe(true);
    }
    // In the bucket itself, not a local directory.
    const listed = [];
    for await (const file of h.s3!.storage().list()) listed.push(file.key);
    expect(listed).toEqual(expect.arrayContaining([row.model_glb_key, row.model_usdz_key, row.model_thumbnail_key]));
  });

  it('answers 503 with Retry-After when the bucket cannot be reached, and marks the model failed', async () => {
    const item = await newItem();
    const unreachable = createApp({ ...h.deps, storage: h.s3!.storage({ endpoint: `http://127.0.0.1:${await freePort()}` }) });
    const res = await upload(unreachable, item.id);
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBeDefined();
    expect(await itemRow(item.id)).toMatchObject({ model_status: 'failed', model_failure_reason: 'the files could not be stored' });
  });
});
