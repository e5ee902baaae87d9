import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZItem, zData } from '@partner/contracts';
import { createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } from '@partner/sample-dish';
import { expectError, useAppHarness } from '../testing/app-harness.js';
import { lastWriterOf, outboxEventsAbout, seedItem, seedRestaurant } from '../testing/factories.js';

type Part = 'glb' | 'usdz' | 'thumbnail' | 'extra';

const h = useAppHarness();
let files: Record<'glb' | 'usdz' | 'thumbnail', Buffer>;
beforeAll(() => {
  files = { glb: createSampleDishGlb(), usdz: createSampleDishUsdz(), thumbnail: createSampleThumbnailPng(64) };
});

function upload(itemId: string, parts: Partial<Record<Part, Buffer>>) {
  const req = request(h.app).put(`/console/items/${itemId}/model`).set(h.admin);
  for (const [name, data] of Object.entries(parts)) req.attach(name, data, `${name}.bin`);
  return req;
}

async function newItem() {
  const restaurant = await seedRestaurant(h.deps);
  return seedItem(h.deps, restaurant.id);
}

const itemRow = (id: string) => h.deps.db.selectFrom('items').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('PUT /console/items/:id/model', () => {
  it('checks and stores the files under their content hash, marks the model ready and writes model.ready with it', async () => {
    const item = await newItem();
    const res = await upload(item.id, files);
    expect(res.status).toBe(200);
    expect(zData(ZItem).parse(res.body).data.model).toEqual({ status: 'ready', updatedAt: expect.any(String) });

    const row = await itemRow(item.id);
    expect(row).toMatchObject({
      model_status: 'ready',
      model_failure_reason: null,
      model_glb_key: `${sha256(files.glb)}.glb`,
      model_usdz_key: `${sha256(files.usdz)}.usdz`,
      model_thumbnail_key: `${sha256(files.thumbnail)}.png`,
    });
    for (const [key, data] of [
      [row.model_glb_key!, files.glb],
      [row.model_usdz_key!, files.usdz],
      [row.model_thumbnail_key!, files.thumbnail],
    ] as const) {
      expect((await readFile(join(h.storageDir, key))).equals(data)).toBe(true);
    }

    const events = await outboxEventsAbout(h.deps.db, 'itemId', item.id);
    expect(events.map((event) => event.type)).toEqual(['item.created', 'model.ready']);
    expect(events[1]!.writtenBy).toBe(await lastWriterOf(h.deps.db, 'items', item.id));
  });

  it.each([
    ['a GLB without a glTF header', { glb: Buffer.from('not a model at all') }, 'glb'],
    ['a USDZ that is not a zip', { usdz: Buffer.from('PK nope') }, 'usdz'],
    ['a thumbnail that is not an image', { thumbnail: Buffer.from('<svg onload=alert(1)>') }, 'thumbnail'],
  ])('refuses %s with 422 model_invalid: the model is failed, model.failed says why, nothing is stored', async (_name, broken, part) => {
    const item = await newItem();
    const stored = await readdir(h.storageDir).catch(() => []);
    const res = await upload(item.id, { ...files, ...broken });
    expectError(res, 422, 'model_invalid');
    expect(res.body.error.message).toContain(part);

    const row = await itemRow(item.id);
    expect(row.model_status).toBe('failed');
    expect(row.model_failure_reason).toContain(part);
    expect(row.model_glb_key).toBeNull();
    const events = await outboxEventsAbout(h.deps.db, 'itemId', item.id);
    expect(events.map((event) => event.type)).toEqual(['item.created', 'model.failed']);
    expect(events[1]!.data).toMatchObject({ itemId: item.id, reason: expect.stringContaining(part) });
    expect((await readdir(h.storageDir).catch(() => [])).sort()).toEqual([...stored].sort());
  });

  it('keeps the previous ready model when a later upload fails', async () => {
    const item = await newItem();
    await upload(item.id, files);
    const ready = await itemRow(item.id);
    await upload(item.id, { ...files, glb: Buffer.from('broken') });
    expect(await itemRow(item.id)).toMatchObject({ model_status: 'failed', model_glb_key: ready.model_glb_key });
  });

  it('refuses incomplete or malformed uploads before touching the item', async () => {
    const item = await newItem();
    expectError(await upload(item.id, { glb: files.glb, usdz: files.usdz }), 400, 'invalid_request', 'thumbnail');
    expectError(await upload(item.id, { glb: files.glb, usdz: files.usdz, extra: files.thumbnail }), 400, 'invalid_request', 'extra');
    expectError(await upload(item.id, { ...files, extra: files.thumbnail }), 400, 'invalid_request');
    expectError(await request(h.app).put(`/console/items/${item.id}/model`).set(h.admin).send({ glb: 'x' }), 415, 'unsupported_media_type');
    expectError(await upload(item.id, { ...files, glb: Buffer.alloc(h.deps.maxModelBytes + 1) }), 413, 'payload_too_large', 'glb');
    expectError(await upload('itm_unknown000000', files), 404, 'not_found');
    expect(await itemRow(item.id)).toMatchObject({ model_status: 'none', model_updated_at: null });
    expect((await outboxEventsAbout(h.deps.db, 'itemId', item.id)).map((event) => event.type)).toEqual(['item.created']);
  });

  it('answers 404 for a deleted item', async () => {
    const item = await newItem();
    await request(h.app).delete(`/console/items/${item.id}`).set(h.admin);
    expectError(await upload(item.id, files), 404, 'not_found');
    expect((await itemRow(item.id)).model_status).toBe('none');
  });
});
