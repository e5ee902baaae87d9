import { constants, createReadStream } from 'node:fs';
import { access, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';

/** Where model files live. Local directory by default; an object-storage driver fits the same shape. */
export interface AssetStorage {
  /** Stores bytes under a key; writing the same content-addressed key twice is harmless. */
  put(key: string, data: Buffer): Promise<void>;
  /** The size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** The bytes, or an inclusive byte range of them. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /**
   * For `/readyz`: resolves when the storage can serve what the service needs of it now (the catalog
   * only reads; the console writes too), throws saying what is wrong otherwise. Callers bound the wait.
   */
  checkReady(needs: 'read' | 'read-write'): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class LocalDirectoryStorage implements AssetStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
    return join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    await mkdir(this.root, { recursive: true });
    // Write then rename: a reader never sees half a file.
    const temporary = `${this.path(key)}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, this.path(key));
    } catch (err) {
      // A full or failing volume must not collect half-written files.
      await rm(temporary, { force: true }).catch(() => {}); // the write's error is the one to report
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return null;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(key), range);
  }

  async checkReady(needs: 'read' | 'read-write'): Promise<void> {
    // As put() would: a fresh install has no directory until its first upload. On a read-only volume
    // that holds the directory already, mkdir of it is a no-op rather than an error.
    await mkdir(this.root, { recursive: true });
    await access(this.root, needs === 'read' ? constants.R_OK : constants.R_OK | constants.W_OK);
  }
}
