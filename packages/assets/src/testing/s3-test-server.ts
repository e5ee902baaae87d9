import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3Storage, type S3StorageOptions } from '../s3-storage.js';

/** s3rver accepts any key pair; the SDK needs one to sign with. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** A driver on this server's bucket, as `storageFromConfig` builds it for ASSET_STORAGE_DRIVER=s3. */
  storage(options?: Partial<S3StorageOptions>): S3Storage;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, in this process, on a free port) with one empty bucket, for tests
 * that drive the S3 driver through the real SDK.
 */
export async function startS3TestServer(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'ptr-s3rver-'));
  const bucket = 'partner-assets';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const drivers: S3Storage[] = [];
  return {
    endpoint,
    bucket,
    storage: (options = {}) => {
      const driver = new S3Storage({
        bucket,
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        timeoutMs: 2000,
        credentials,
        ...options,
      });
      drivers.push(driver);
      return driver;
    },
    close: async () => {
      for (const driver of drivers) driver.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
