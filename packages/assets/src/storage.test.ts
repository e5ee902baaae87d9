import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDirectoryStorage } from './storage.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ptr-storage-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('LocalDirectoryStorage', () => {
  it('leaves no temporary file behind when a write fails', async () => {
    const storage = new LocalDirectoryStorage(root);
    // A non-empty directory where the file should go: the final rename fails after the bytes were written.
    await mkdir(join(root, 'taken.glb'));
    await writeFile(join(root, 'taken.glb', 'inside'), 'x');
    await expect(storage.put('taken.glb', Buffer.from('data'))).rejects.toThrow();
    expect(await readdir(root)).toEqual(['taken.glb']);
  });

  it('lists neither directories nor writes in progress, and takes the age from the file', async () => {
    const storage = new LocalDirectoryStorage(root);
    await storage.put('done.glb', Buffer.from('x'));
    const old = new Date('2026-01-02T03:04:05Z');
    await utimes(join(root, 'done.glb'), old, old);
    await writeFile(join(root, 'done.glb.0123456789ab.tmp'), 'half');
    await mkdir(join(root, 'folder.glb'));
    const listed = [];
    for await (const file of storage.list()) listed.push(file);
    expect(listed).toEqual([{ key: 'done.glb', size: 1, lastModified: old }]);
  });

  it('lists nothing before the first upload made its directory', async () => {
    const listed = [];
    for await (const file of new LocalDirectoryStorage(join(root, 'not-yet')).list()) listed.push(file);
    expect(listed).toEqual([]);
  });
});
