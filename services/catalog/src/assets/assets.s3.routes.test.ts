import { createServer, type Server } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetStorageKey } from '@partner/assets';
import { freePort, keyPrincipalFor } from '@partner/testing';
import { createApp } from '../app.js';
import { expectError, PUBLIC_BASE_URL, publicPrincipal, useAppHarness } from '../testing/app-harness.js';
import { seedItem, seedRestaurant, storeModelFiles } from '../testing/factories.js';

// The same route on the S3 driver: files uploaded to a bucket (a real S3-protocol server, the real SDK)
// are streamed by the catalog with the same URLs, ranges, validators and errors as from a directory.
const h = useAppHarness({ storage: 's3' });

async function seedSignedModel() {
  const { restaurant, owner } = await seedRestaurant(h.deps.db);
  const files = await storeModelFiles(h.deps.storage);
  const item = await seedItem(h.deps.db, restaurant.id, files.columns);
  const { data } = (await h.post(`/v1/partner/items/${item.id}/asset-urls`, keyPrincipalFor(owner)).expect(200)).body;
  return { files, glbPath: (data.glbUrl as string).slice(PUBLIC_BASE_URL.length) };
}

const download = (path: string, headers: Record<string, string> = {}) => h.get(path, publicPrincipal).set(headers).responseType('blob');
const signedPath = (storageKey: string) => h.deps.signer.url(storageKey, h.deps.signer.expiry(h.deps.now())).slice(PUBLIC_BASE_URL.length);

describe('GET /v1/assets/... from an S3 bucket', () => {
  it('streams the file from the bucket with its content type, length and ETag', async () => {
    const { files, glbPath } = await seedSignedModel();
    const res = await download(glbPath).expect(200);
    expect(Buffer.compare(res.body, files.glb.bytes)).toBe(0);
    expect(res.headers).toMatchObject({
      'content-type': 'model/gltf-binary',
      'content-length': String(files.glb.bytes.length),
      'accept-ranges': 'bytes',
      etag: `"${files.glb.key.split('.')[0]}"`,
    });
    const head = await request(h.app).head(glbPath).set(h.caller.headers(publicPrincipal)).expect(200);
    expect(head.headers['content-length']).toBe(String(files.glb.bytes.length));
  });

  it('serves byte ranges with 206 and refuses one outside the file with 416', async () => {
    const { files, glbPath } = await seedSignedModel();
    const size = files.glb.bytes.length;
    const first = await download(glbPath, { Range: 'bytes=0-3' }).expect(206);
    expect(first.headers['content-range']).toBe(`bytes 0-3/${size}`);
    expect(first.body.toString('binary')).toBe('glTF');
    const tail = await download(glbPath, { Range: 'bytes=-10' }).expect(206);
    expect(Buffer.compare(tail.body, files.glb.bytes.subarray(size - 10))).toBe(0);
    const outside = await h.get(glbPath, publicPrincipal).set('Range', `bytes=${size}-${size + 10}`);
    expectError(outside, 416, 'range_not_satisfiable');
    expect(outside.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('answers 304 to a viewer that has the file, also when it asks for a range', async () => {
    const { glbPath } = await seedSignedModel();
    const { etag } = (await download(glbPath).expect(200)).headers as { etag: string };
    const cached = await download(glbPath, { 'If-None-Match': etag }).expect(304);
    expect(cached.headers.etag).toBe(etag);
    expect(cached.body.length ?? 0).toBe(0);
    await download(glbPath, { 'If-None-Match': etag, Range: 'bytes=0-3' }).expect(304);
    await download(glbPath, { 'If-None-Match': '"another"' }).expect(200);
  });

  it('answers 404 for a well-signed URL to a file the bucket does not hold', async () => {
    expectError(await h.get(signedPath(assetStorageKey('f'.repeat(64), 'glb')), publicPrincipal), 404, 'not_found');
  });

  describe('when the bucket cannot be reached', () => {
    let silent: Server;
    let silentPort: number;
    beforeAll(async () => {
      silent = createServer((socket) => socket.resume());
      silentPort = await freePort();
      await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise((resolve) => silent.close(resolve)));

    it('answers 503 with Retry-After, whether the store refuses or never answers, within its deadline', async () => {
      const { glbPath } = await seedSignedModel();
      for (const [endpoint, timeoutMs] of [
        [`http://127.0.0.1:${await freePort()}`, 2000],
        [`http://127.0.0.1:${silentPort}`, 300],
      ] as const) {
        const storage = h.s3!.storage({ endpoint, timeoutMs });
        const app = createApp({ ...h.deps, storage });
        const started = Date.now();
        const res = await request(app).get(glbPath).set(h.caller.headers(publicPrincipal));
        expectError(res, 503, 'service_unavailable');
        expect(res.headers['retry-after']).toBe('1');
        expect(res.headers['cache-control']).toBeUndefined();
        expect(res.headers.etag).toBeUndefined();
        expect(Date.now() - started).toBeLessThan(timeoutMs + 1000);
      }
      // The bucket itself still serves.
      await download(glbPath).expect(200);
    });
  });
});
