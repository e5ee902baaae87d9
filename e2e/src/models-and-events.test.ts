import { rename, rm, writeFile } from 'node:fs/promises';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZEvent } from '@partner/contracts';
import { meshToGlb, plateMesh, usdaToUsdz } from '@partner/sample-dish';
import { expectError } from './expect-error.js';
import { restaurantWithKey, sampleModelFiles, startStack, type Stack } from './stack.js';

let stack: Stack;
let files: Awaited<ReturnType<typeof sampleModelFiles>>;
beforeAll(async () => {
  stack = await startStack();
  files = await sampleModelFiles();
});
afterAll(() => stack.stop());

const eventsOf = (restaurantId: string) =>
  stack.db.selectFrom('outbox_events').selectAll().where('restaurant_id', '=', restaurantId).orderBy('seq').execute();

async function newItem() {
  const { restaurant } = await restaurantWithKey(stack);
  const item = await stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
  return { restaurant, item };
}

function upload(itemId: string, parts: Partial<Record<'glb' | 'usdz' | 'thumbnail' | 'extra', Buffer>>) {
  const req = request(stack.consoleUrl).put(`/console/items/${itemId}/model`).set('Authorization', `Bearer ${stack.adminToken}`);
  for (const [name, data] of Object.entries(parts)) req.attach(name, data, `${name}.bin`);
  return req;
}

describe('model upload', () => {
  it('moves the model to ready, writes model.ready, and the files are served', async () => {
    const { restaurant, item } = await newItem();
    const res = await upload(item.id, files);
    expect(res.status).toBe(200);
    expect(res.body.data.model.status).toBe('ready');
    const events = await eventsOf(restaurant.id);
    expect(events.map((e) => e.type)).toEqual(['item.created', 'model.ready']);
    const ready = ZEvent.parse({
      id: events[1]!.id,
      type: events[1]!.type,
      createdAt: events[1]!.created_at.toISOString(),
      data: events[1]!.data,
    });
    expect(ready.data).toEqual({ itemId: item.id, restaurantId: restaurant.id, itemSlug: item.slug, itemName: 'Tiramisu' });
  });

  it.each([
    ['a GLB without a glTF header', () => ({ ...files, glb: Buffer.from('not a model at all') }), 'glb'],
    ['a GLB whose content is broken', () => ({ ...files, glb: corruptGlb(files.glb) }), 'glb'],
    ['a USDZ that is not a zip', () => ({ ...files, usdz: Buffer.from('PK nope') }), 'usdz'],
    ['a USDZ without a USD layer first', () => ({ ...files, usdz: usdaToUsdz('hello', 'readme.txt') }), 'usdz'],
    ['a thumbnail that is not an image', () => ({ ...files, thumbnail: Buffer.from('<svg onload=alert(1)>') }), 'thumbnail'],
  ])('refuses %s with 422 model_invalid, marks the model failed and writes model.failed', async (_name, make, part) => {
    const { restaurant, item } = await newItem();
    const res = await upload(item.id, make());
    expectError(res, 422, 'model_invalid');
    expect(res.body.error.message).toContain(part);
    const row = await stack.db.selectFrom('items').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row.model_status).toBe('failed');
    expect(row.model_failure_reason).toContain(part);
    const failed = (await eventsOf(restaurant.id)).at(-1)!;
    expect(failed.type).toBe('model.failed');
    expect(failed.data).toMatchObject({ itemId: item.id, reason: expect.stringContaining(part) });
  });

  it('refuses missing files, unknown parts, non-multipart bodies and unknown items', async () => {
    const { item } = await newItem();
    expectError(await upload(item.id, { glb: files.glb }), 400, 'invalid_request');
    expectError(await upload(item.id, { ...files, extra: Buffer.from('x') }), 400, 'invalid_request');
    const json = await request(stack.consoleUrl)
      .put(`/console/items/${item.id}/model`)
      .set('Authorization', `Bearer ${stack.adminToken}`)
      .send({ glb: 'base64...' });
    expectError(json, 415, 'unsupported_media_type');
    expectError(await upload('itm_nope', files), 404, 'not_found');
  });

  it("keeps the previous model's URL working after a new upload (content-addressed files)", async () => {
    const { restaurant, item } = await newItem();
    const key = await stack.console.createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'live', name: 'k' });
    const auth = { Authorization: `Bearer ${key.value}` };
    await upload(item.id, files);
    const before = (await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth)).body.data.assets.glbUrl as string;
    await upload(item.id, { ...files, glb: meshToGlb(plateMesh({ radius: 0.1 })) });
    const after = (await request(stack.gatewayUrl).get(`/v1/partner/items/${item.id}`).set(auth)).body.data.assets.glbUrl as string;
    expect(after).not.toBe(before);
    expect((await request(stack.gatewayUrl).head(new URL(before).pathname)).status).toBe(200);
  });

  it('marks the model failed, with model.failed, when its files cannot be stored', async () => {
    const { restaurant, item } = await newItem();
    // The storage directory replaced by a file: every write fails, as on a full or unmounted volume.
    const away = `${stack.assetDir}.away`;
    await rename(stack.assetDir, away);
    await writeFile(stack.assetDir, 'not a directory');
    try {
      expectError(await upload(item.id, files), 503, 'service_unavailable');
    } finally {
      await rm(stack.assetDir);
      await rename(away, stack.assetDir);
    }
    const failed = await stack.db.selectFrom('items').select('model_status').where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(failed.model_status).toBe('failed');
    expect((await eventsOf(restaurant.id)).map((e) => e.type)).toEqual(['item.created', 'model.failed']);
    expect((await upload(item.id, files)).body.data.model.status).toBe('ready');
  });
  type ModelParts = Parameters<typeof upload>[1];

  /**
   * Two uploads of one item that overlap: the item's row is held locked, so both queue at their
   * `processing` write, `first` then `second`; once released, `first` is processed while `second` has
   * already started after it.
   */
  async function overlappingUploads(itemId: string, first: ModelParts, second: ModelParts) {
    /** The backend that waits on `blocker` (a Postgres pid), once there is one. */
    const waiterOn = async (blocker: number) => {
      for (let i = 0; i < 400; i++) {
        const { rows } = await sql<{ pid: number }>`
          select pid from pg_stat_activity where ${blocker} = any(pg_blocking_pids(pid))
        `.execute(stack.db);
        if (rows[0]) return rows[0].pid;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no upload ever waited on backend ${blocker}`);
    };
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holder: (pid: number) => void = () => {};
    const holderPid = new Promise<number>((resolve) => (holder = resolve));
    const held = stack.db.transaction().execute(async (tx) => {
      await tx.selectFrom('items').select('id').where('id', '=', itemId).forUpdate().execute();
      holder((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0]!.pid);
      await released;
    });
    try {
      // Both uploads must queue at their `processing` write: the first once the row is held, the second
      // behind the first (blocked by it, not only by the holder). supertest sends a request once it is
      // awaited or then()'d.
      const heldBy = await holderPid;
      const firstAnswer = upload(itemId, first).then((res) => res);
      const firstPid = await waiterOn(heldBy);
      const secondAnswer = upload(itemId, second).then((res) => res);
      await waiterOn(firstPid);
      release();
      return await Promise.all([firstAnswer, secondAnswer]);
    } finally {
      release();
      await held;
    }
  }

  const modelOf = (itemId: string) =>
    stack.db.selectFrom('items').select(['model_status', 'model_glb_key']).where('id', '=', itemId).executeTakeFirstOrThrow();

  it('lets a later upload that fails win over an earlier one still running (409 for the earlier)', async () => {
    const { restaurant, item } = await newItem();
    const [valid, broken] = await overlappingUploads(item.id, files, { ...files, glb: Buffer.from('not a glb at all') });
    expectError(broken, 422, 'model_invalid');
    expectError(valid, 409, 'conflict');
    expect(await modelOf(item.id)).toEqual({ model_status: 'failed', model_glb_key: null });
    expect((await eventsOf(restaurant.id)).map((e) => e.type)).toEqual(['item.created', 'model.failed']);
  });

  it('lets a later upload that succeeds win over an earlier broken one, which changes nothing', async () => {
    const { restaurant, item } = await newItem();
    const [broken, valid] = await overlappingUploads(item.id, { ...files, glb: Buffer.from('not a glb at all') }, files);
    expectError(broken, 422, 'model_invalid');
    expect(valid.status).toBe(200);
    expect(await modelOf(item.id)).toMatchObject({ model_status: 'ready', model_glb_key: expect.stringMatching(/\.glb$/) });
    expect((await eventsOf(restaurant.id)).map((e) => e.type)).toEqual(['item.created', 'model.ready']);
  });
});

describe('outbox', () => {
  it('writes item.created, item.updated and item.deleted in the same transaction as each change', async () => {
    const { restaurant, item } = await newItem();
    await stack.console.updateItem(item.id, { priceCents: 950 });
    await stack.console.deleteItem(item.id);
    const events = await eventsOf(restaurant.id);
    expect(events.map((e) => e.type)).toEqual(['item.created', 'item.updated', 'item.deleted']);
    for (const event of events) {
      expect(event.id).toMatch(/^evt_/);
      expect(event.data).toEqual({ itemId: item.id, restaurantId: restaurant.id, itemSlug: item.slug, itemName: 'Tiramisu' });
    }
  });

  it('writes nothing for a change that fails', async () => {
    const { restaurant, item } = await newItem();
    await stack.console.createItem(restaurant.id, { name: 'Other', priceCents: 1, slug: 'taken' });
    await expect(stack.console.updateItem(item.id, { slug: 'taken' })).rejects.toThrow();
    expect((await eventsOf(restaurant.id)).map((e) => e.type)).toEqual(['item.created', 'item.created']);
  });
});

/** A GLB whose header is right but whose JSON chunk claims an accessor past the end of its buffer. */
function corruptGlb(glb: Buffer): Buffer {
  const jsonLength = glb.readUInt32LE(12);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString()) as { accessors: { count: number }[] };
  json.accessors[0]!.count = 1_000_000;
  let text = JSON.stringify(json);
  text += ' '.repeat((4 - (text.length % 4)) % 4);
  const chunk = Buffer.alloc(8);
  chunk.writeUInt32LE(text.length, 0);
  chunk.writeUInt32LE(0x4e4f534a, 4);
  const rest = glb.subarray(20 + jsonLength);
  const header = Buffer.from(glb.subarray(0, 12));
  const out = Buffer.concat([header, chunk, Buffer.from(text), rest]);
  out.writeUInt32LE(out.length, 8);
  return out;
}
