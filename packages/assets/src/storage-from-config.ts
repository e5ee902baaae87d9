import { mkdirSync } from 'node:fs';
import { LocalDirectoryStorage, type AssetStorage } from './storage.js';

/** The storage settings both services read (ASSET_STORAGE_DRIVER and the rest, docs/storage.md). */
export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint?: string;
      forcePathStyle: boolean;
      prefix?: string;
      timeoutMs: number;
    };

/**
 * The one place a driver is built from configuration; `close` releases its connections. A local
 * directory is made when missing (a fresh machine): readiness then fails only if it goes away. The S3
 * driver is loaded only when configured: the AWS SDK costs a process about 30 MB.
 */
export async function storageFromConfig(config: StorageConfig): Promise<{ storage: AssetStorage; close: () => void }> {
  if (config.driver === 'local') {
    mkdirSync(config.dir, { recursive: true });
    return { storage: new LocalDirectoryStorage(config.dir), close: () => {} };
  }
  const { S3Storage } = await import('./s3-storage.js');
  const storage = new S3Storage(config);
  return { storage, close: () => storage.close() };
}
