import { constants, createReadStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';

/** A stored file as a listing or a lookup sees it; `lastModified` is its last write (a re-upload too). */
export interface StoredFile {
  key: string;
  size: number;
  lastModified: Date;
}

/**
 * Where model files live: a local directory (the default) or an S3-compatible bucket. Any failure of
 * the store itself (unreachable, timed out, refusing) rejects; "no such file" is `null`, never an error.
 */
export interface AssetStorage {
  /** Stores bytes under a key; writing the same content-addressed key twice is harmless. */
  put(key: string, data: Buffer): Promise<void>;
  /** The file's size and last write, or null when there is no such file. */
  stat(key: string): Promise<StoredFile | null>;
  /** The bytes, or an inclusive byte range of them; rejects when the file cannot be opened. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored file, in no particular order. */
  list(): AsyncIterable<StoredFile>;
  /**
   * Whether the store can be used as configured (readiness): null when it can, else what is wrong in a
   * few words that name no path or host (`no such bucket`, `no such directory`). A store that fails to
   * answer rejects, as every call does.
   */
  check(): Promise<string | null>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Keys are file names on disk and object names in a bucket: nothing that could climb out of either. */
export function assertSafeStorageKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
  return key;
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as { code?: string }).code ?? '');
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/;

export class LocalDirectoryStorage implements AssetStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, assertSafeStorageKey(key));
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

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const found = await stat(this.path(key));
      return { key, size: found.size, lastModified: found.mtime };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = createReadStream(this.path(key), range);
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      stream.once('error', failed);
      stream.once('open', () => {
        stream.off('error', failed);
        resolve();
      });
    });
    return stream;
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /** The directory exists and can be read: a volume that is not mounted, or a mistyped path, is not. */
  async check(): Promise<string | null> {
    try {
      if (!(await stat(this.root)).isDirectory()) return 'not a directory';
      await access(this.root, constants.R_OK | constants.X_OK);
      return null;
    } catch (err) {
      if (isMissing(err)) return 'no such directory';
      if ((err as { code?: string }).code === 'EACCES') return 'permission denied';
      throw err;
    }
  }

  async *list(): AsyncIterable<StoredFile> {
    const entries = await readdir(this.root, { withFileTypes: true }).catch((err: unknown) => {
      if (isMissing(err)) return [];
      throw err;
    });
    for (const entry of entries) {
      // A write in progress is not a file yet.
      if (!entry.isFile() || TEMPORARY.test(entry.name) || !SAFE_KEY.test(entry.name)) continue;
      const found = await this.stat(entry.name);
      if (found) yield found;
    }
  }
}
