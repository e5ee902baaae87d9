import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDirectoryStorage, type AssetStorage } from './storage.js';
import { startS3TestServer, type S3TestServer } from './testing/s3-test-server.js';

let root: string;
let s3: S3TestServer;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ptr-contract-'));
  s3 = await startS3TestServer();
});
afterAll(async () => {
  await s3.close();
  await rm(root, { recursive: true, force: true });
});

const listAll = async (storage: AssetStorage) => {
  const files = [];
  for await (const file of storage.list()) files.push(file);
  return files.sort((a, b) => a.key.localeCompare(b.key));
};

// The same cases for every driver: catalog and console rely on nothing else.
describe.each([
  ['local directory', () => new LocalDirectoryStorage(join(root, 'store'))],
  ['S3 (s3rver)', () => s3.storage()],
  ['S3 with a key prefix', () => s3.storage({ prefix: 'models/' })],
])('AssetStorage contract: %s', (_name, build) => {
  let storage: AssetStorage;
  beforeAll(() => {
    storage = build();
  });

  it('stores a file, and tells its size and last write', async () => {
    const before = Date.now();
    await storage.put('abc.glb', Buffer.from('0123456789'));
    const found = await storage.stat('abc.glb');
    expect(found).toMatchObject({ key: 'abc.glb', size: 10 });
    // S3 stamps whole seconds.
    expect(found!.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(found!.lastModified.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('reads a file whole or by an inclusive byte range', async () => {
    await storage.put('read.glb', Buffer.from('0123456789'));
    expect(await text(await storage.read('read.glb'))).toBe('0123456789');
    expect(await text(await storage.read('read.glb', { start: 2, end: 4 }))).toBe('234');
    expect(await text(await storage.read('read.glb', { start: 9, end: 9 }))).toBe('9');
  });

  it('replaces a file written again under the same key', async () => {
    await storage.put('again.glb', Buffer.from('first'));
    await storage.put('again.glb', Buffer.from('second'));
    expect(await text(await storage.read('again.glb'))).toBe('second');
  });

  it('knows no missing file: stat is null, read rejects', async () => {
    expect(await storage.stat('missing.glb')).toBeNull();
    await expect(storage.read('missing.glb')).rejects.toThrow();
  });

  it('deletes a file, and deleting a missing one is fine', async () => {
    await storage.put('gone.glb', Buffer.from('x'));
    await storage.delete('gone.glb');
    expect(await storage.stat('gone.glb')).toBeNull();
    await storage.delete('gone.glb');
  });

  it('lists every file with its size and last write', async () => {
    const keys = ['list-a.usdz', 'list-b.png'];
    for (const key of keys) await storage.put(key, Buffer.from(key));
    const listed = (await listAll(storage)).filter((file) => file.key.startsWith('list-'));
    expect(listed.map(({ key, size }) => ({ key, size }))).toEqual(keys.map((key) => ({ key, size: key.length })));
    for (const file of listed) expect(file.lastModified).toEqual((await storage.stat(file.key))!.lastModified);
  });

  it('reports itself usable once it holds a file', async () => {
    await storage.put('usable.glb', Buffer.from('x'));
    expect(await storage.check()).toBeNull();
  });

  it('refuses keys that could leave its directory or prefix', async () => {
    for (const key of ['../etc/passwd', '.hidden', 'a/b.glb']) {
      await expect(storage.stat(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/unsafe storage key/);
    }
  });
});

it('a prefixed S3 driver sees only its own prefix', async () => {
  const bare = s3.storage();
  const prefixed = s3.storage({ prefix: 'other/' });
  await bare.put('outside.glb', Buffer.from('x'));
  await prefixed.put('inside.glb', Buffer.from('y'));
  expect((await listAll(prefixed)).map((file) => file.key)).toEqual(['inside.glb']);
  expect(await prefixed.stat('outside.glb')).toBeNull();
  // The bare driver does not take the prefixed object for one of its files.
  expect((await listAll(bare)).map((file) => file.key)).not.toContain('other/inside.glb');
});

it('each driver names what makes it unusable: a missing bucket, a missing directory, a file for a directory', async () => {
  expect(await s3.storage({ bucket: 'no-such-bucket' }).check()).toBe('no such bucket');
  expect(await new LocalDirectoryStorage(join(root, 'never-made')).check()).toBe('no such directory');
  await writeFile(join(root, 'a-file'), 'x');
  expect(await new LocalDirectoryStorage(join(root, 'a-file')).check()).toBe('not a directory');
});
