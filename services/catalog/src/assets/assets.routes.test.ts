import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, readdir, readlink } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { assetStorageKey, type AssetStorage } from '@partner/assets';
import { keyPrincipalFor } from '@partner/testing';
import {
  ASSET_URL_TTL_SECONDS,
  expectError,
  expectGuarded,
  PUBLIC_BASE_URL,
  publicPrincipal,
  useAppHarness,
} from '../testing/app-harness.js';
import { seedItem, seedRestaurant, storeModelFiles } from '../testing/factories.js';
import { createApp } from '../app.js';

const h = useAppHarness();

/** An item with a ready model, and the signed URLs (as paths on the catalog) its refresh hands out. */
async function seedSignedModel() {
  const { restaurant, owner } = await seedRestaurant(h.deps.db);
  const files = await storeModelFiles(h.deps.storage);
  const item = await seedItem(h.deps.db, restaurant.id, files.columns);
  const { data } = (await h.post(`/v1/partner/items/${item.id}/asset-urls`, keyPrincipalFor(owner)).expect(200)).body;
  const path = (url: string) => url.slice(PUBLIC_BASE_URL.length);
  return { files, paths: { glb: path(data.glbUrl), usdz: path(data.usdzUrl), thumbnail: path(data.thumbnailUrl) } };
}

/** A signed URL's path with one of its segments (expiry, signature, hash, file name) replaced. */
function withSegment(path: string, index: number, value: string): string {
  const segments = path.split('/');
  segments[3 + index] = value;
  return segments.join('/');
}

/** A file download as a 3D runtime makes it (through the gateway, without a key): the body as bytes. */
const download = (path: string, headers: Record<string, string> = {}) => h.get(path, publicPrincipal).set(headers).responseType('blob');

describe('GET /v1/assets/...', () => {
  it('lets only the gateway in', async () => {
    const { paths } = await seedSignedModel();
    await expectGuarded(h, 'get', paths.glb, publicPrincipal);
  });

  it('serves each signed file with its content type, cacheable while the URL lives, to any origin', async () => {
    h.clock.pin(new Date('2026-06-01T12:00:00.700Z'));
    const { files, paths } = await seedSignedModel();
    for (const [path, file, contentType] of [
      [paths.glb, files.glb, 'model/gltf-binary'],
      [paths.usdz, files.usdz, 'model/vnd.usdz+zip'],
      [paths.thumbnail, files.thumbnail, 'image/png'],
    ] as const) {
      const res = await download(path).expect(200);
      expect(res.headers['content-type']).toBe(contentType);
      expect(Buffer.compare(res.body, file.bytes)).toBe(0);
      expect(res.headers).toMatchObject({
        'content-length': String(file.bytes.length),
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'referrer-policy': 'no-referrer',
        'access-control-allow-origin': '*',
        'cache-control': `public, max-age=${ASSET_URL_TTL_SECONDS}, immutable`,
        etag: `"${file.key.split('.')[0]}"`,
      });
    }
    h.clock.advance(600_000);
    expect((await download(paths.glb).expect(200)).headers['cache-control']).toBe(
      `public, max-age=${ASSET_URL_TTL_SECONDS - 600}, immutable`,
    );
  });

  it('answers HEAD with the headers only', async () => {
    const { files, paths } = await seedSignedModel();
    const res = await request(h.app).head(paths.glb).set(h.caller.headers(publicPrincipal)).expect(200);
    expect(res.headers['content-length']).toBe(String(files.glb.bytes.length));
    expect(res.headers['content-type']).toBe('model/gltf-binary');
  });

  it('serves a byte range with 206, and the whole file for a malformed range', async () => {
    const { files, paths } = await seedSignedModel();
    const size = files.glb.bytes.length;
    const head = await download(paths.glb, { Range: 'bytes=0-3' }).expect(206);
    expect(head.headers['content-range']).toBe(`bytes 0-3/${size}`);
    expect(head.headers['content-length']).toBe('4');
    expect(head.body.toString('binary')).toBe('glTF');
    const tail = await download(paths.glb, { Range: 'bytes=-10' }).expect(206);
    expect(Buffer.compare(tail.body, files.glb.bytes.subarray(size - 10))).toBe(0);
    const whole = await download(paths.glb, { Range: 'pages=1' }).expect(200);
    expect(whole.body.length).toBe(size);
  });

  it('answers 304 to a viewer that has the file (If-None-Match), also when it asks for a range', async () => {
    // Pinned: max-age is the URL's remaining life, which a second passing between signing and asking shortens.
    h.clock.pin(new Date('2026-06-01T12:00:00.700Z'));
    const { files, paths } = await seedSignedModel();
    const etag = `"${files.glb.key.split('.')[0]}"`;
    const cached = await download(paths.glb, { 'If-None-Match': etag }).expect(304);
    expect(cached.headers).toMatchObject({ etag, 'cache-control': `public, max-age=${ASSET_URL_TTL_SECONDS}, immutable` });
    expect(cached.headers['content-length']).toBeUndefined();
    await download(paths.glb, { 'If-None-Match': `"other", ${etag}`, Range: 'bytes=0-3' }).expect(304);
    await download(paths.glb, { 'If-None-Match': '"other"' }).expect(200);
  });

  it('answers 416 for a range outside the file', async () => {
    const { files, paths } = await seedSignedModel();
    const res = await h.get(paths.glb, publicPrincipal).set('Range', 'bytes=10000-20000');
    expectError(res, 416, 'range_not_satisfiable');
    expect(res.headers['content-range']).toBe(`bytes */${files.glb.bytes.length}`);
  });

  it('refuses a tampered URL with 403 invalid_signature, CORS headers included', async () => {
    const { paths } = await seedSignedModel();
    const [, , , , expiry, signature, hash] = paths.glb.split('/');
    const tampered = [
      withSegment(paths.glb, 0, String(Number(expiry) + 3600)),
      withSegment(paths.glb, 1, `${signature!.slice(0, -4)}AAAA`),
      withSegment(
        paths.glb,
        2,
        hash!.replace(/^./, (c) => (c === '0' ? '1' : '0')),
      ),
      withSegment(paths.glb, 3, 'dish.usdz'),
      `${paths.glb}/extra`,
      '/v1/assets/not-a-signed-url',
    ];
    for (const path of tampered) {
      const res = await h.get(path, publicPrincipal);
      expectError(res, 403, 'invalid_signature');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('refuses an expired URL with 403 expired_signature, and a tampered expired one as invalid', async () => {
    const { paths } = await seedSignedModel();
    await download(paths.glb).expect(200);
    h.clock.advance(ASSET_URL_TTL_SECONDS * 1000);
    expectError(await h.get(paths.glb, publicPrincipal), 403, 'expired_signature');
    expectError(await h.get(withSegment(paths.glb, 1, 'A'.repeat(43)), publicPrincipal), 403, 'invalid_signature');
  });

  it('answers 404 for a well-signed URL to a file that is not stored', async () => {
    expectError(await h.get(signedPath(assetStorageKey('f'.repeat(64), 'glb')), publicPrincipal), 404, 'not_found');
  });

  it('answers a stored file that cannot be read with 503 and Retry-After, and keeps serving', async () => {
    const { paths } = await seedSignedModel();
    const unreadable = assetStorageKey('e'.repeat(64), 'glb');
    // A directory under the file's name: its size can be read, its bytes cannot.
    await mkdir(join(h.assetDir, unreadable));
    const res = await h.get(signedPath(unreadable), publicPrincipal);
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['cache-control']).toBeUndefined();
    await download(paths.glb).expect(200);
  });

  it('closes the file when the client goes away mid-download', async () => {
    const bytes = randomBytes(16 * 1024 * 1024);
    const key = assetStorageKey(createHash('sha256').update(bytes).digest('hex'), 'glb');
    await h.deps.storage.put(key, bytes);
    const server = h.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      await new Promise<void>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        const req = httpGet({ host: '127.0.0.1', port, path: signedPath(key), headers: h.caller.headers(publicPrincipal) }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.once('error', reject);
      });
      await expectNoFileOpenUnder(h.assetDir);
    } finally {
      server.close();
    }
  });

  it('closes the file when the client went away before the store opened it', async () => {
    const { paths } = await seedSignedModel();
    const opening = Promise.withResolvers<void>();
    const clientGone = Promise.withResolvers<void>();
    // The store opens the file only after the client has hung up.
    const storage: AssetStorage = Object.assign(Object.create(h.deps.storage) as AssetStorage, {
      read: async (key: string, range?: { start: number; end: number }) => {
        opening.resolve();
        await clientGone.promise;
        return h.deps.storage.read(key, range);
      },
    });
    const server = createApp({ ...h.deps, storage }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const req = httpGet({ host: '127.0.0.1', port, path: paths.glb, headers: h.caller.headers(publicPrincipal) });
      req.once('error', () => {});
      await opening.promise;
      req.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      clientGone.resolve();
      await expectNoFileOpenUnder(h.assetDir);
    } finally {
      server.close();
    }
  });
});

async function expectNoFileOpenUnder(dir: string): Promise<void> {
  await expect.poll(() => openFilesUnder(dir), { timeout: 1_000, interval: 20 }).toEqual([]);
}

const signedPath = (storageKey: string) => h.deps.signer.url(storageKey, h.deps.signer.expiry(h.deps.now())).slice(PUBLIC_BASE_URL.length);

/** The files under `dir` this process holds open (Linux). */
async function openFilesUnder(dir: string): Promise<string[]> {
  const targets = await Promise.all((await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(dir));
}
