import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDirectoryStorage } from './storage.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ptr-storage-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('LocalDirectoryStorage', () => {
  it('stores, sizes and reads a file whole or by range', async () => {
    const storage = new LocalDirectoryStorage(root);
    await storage.put('abc.glb', Buffer.from('0123456789'));
    expect(await storage.size('abc.glb')).toBe(10);
    expect(await storage.size('missing.glb')).toBeNull();
    expect(await text(storage.read('abc.glb'))).toBe('0123456789');
    expect(await text(storage.read('abc.glb', { start: 2, end: 4 }))).toBe('234');
  });

  it('leaves no temporary file behind when a write fails', async () => {
    const storage = new LocalDirectoryStorage(root);
    // A non-empty directory where the file should go: the final rename fails after the bytes were written.
    await mkdir(join(root, 'taken.glb'));
    await writeFile(join(root, 'taken.glb', 'inside'), 'x');
    await expect(storage.put('taken.glb', Buffer.from('data'))).rejects.toThrow();
    expect(await readdir(root)).toEqual(['taken.glb']);
  });

  it('refuses keys that could leave its directory', () => {
    const storage = new LocalDirectoryStorage(root);
    expect(() => storage.read('../etc/passwd')).toThrow(/unsafe storage key/);
    expect(() => storage.read('.hidden')).toThrow(/unsafe storage key/);
  });
});
