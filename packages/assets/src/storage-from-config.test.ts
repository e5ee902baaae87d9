import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { storageFromConfig } from './storage-from-config.js';
import { startS3TestServer, type S3TestServer } from './testing/s3-test-server.js';

let s3: S3TestServer;
let parent: string;
beforeAll(async () => {
  s3 = await startS3TestServer();
  parent = await mkdtemp(join(tmpdir(), 'ptr-storage-config-'));
});
afterAll(async () => {
  await s3.close();
  await rm(parent, { recursive: true, force: true });
});
afterEach(() => vi.unstubAllEnvs());

describe('storageFromConfig', () => {
  it('makes a missing local directory and stores there', async () => {
    const { storage, close } = await storageFromConfig({ driver: 'local', dir: join(parent, 'new', 'assets') });
    try {
      await storage.put('a.glb', Buffer.from('glTF'));
      expect((await storage.stat('a.glb'))?.size).toBe(4);
    } finally {
      close();
    }
  });

  it('loads the S3 driver when configured, with credentials from the environment as the SDK reads them', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER');
    const { storage, close } = await storageFromConfig({
      driver: 's3',
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      timeoutMs: 2000,
    });
    try {
      await storage.put('b.glb', Buffer.from('glTF!'));
      expect((await storage.stat('b.glb'))?.size).toBe(5);
      expect(await storage.check()).toBeNull();
    } finally {
      close();
    }
  });
});
