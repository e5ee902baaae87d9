import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { parseEnv } from './config.js';
import { storageConfig, storageEnvRule, storageEnvShape } from './storage-env.js';

const ZEnv = z.object(storageEnvShape).check(storageEnvRule);
const load = (env: Record<string, string>) => storageConfig(parseEnv(ZEnv, env));

describe('storage settings', () => {
  it('takes the local directory by default, and needs it then', () => {
    expect(load({ ASSET_STORAGE_DIR: '/var/assets' })).toEqual({ driver: 'local', dir: '/var/assets' });
    expect(() => load({})).toThrow(/ASSET_STORAGE_DIR: is required when ASSET_STORAGE_DRIVER is local/);
  });

  it('takes a bucket for s3, without a directory', () => {
    expect(
      load({
        ASSET_STORAGE_DRIVER: 's3',
        ASSET_S3_BUCKET: 'menus-assets',
        ASSET_S3_REGION: 'auto',
        ASSET_S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
        ASSET_S3_FORCE_PATH_STYLE: 'false',
        ASSET_S3_PREFIX: 'prod/models/',
      }),
    ).toEqual({
      driver: 's3',
      bucket: 'menus-assets',
      region: 'auto',
      endpoint: 'https://account.r2.cloudflarestorage.com',
      forcePathStyle: false,
      prefix: 'prod/models/',
      timeoutMs: 5000,
    });
  });

  it('names every missing or malformed s3 variable at once', () => {
    const attempt = () => load({ ASSET_STORAGE_DRIVER: 's3', ASSET_S3_ENDPOINT: 'not a url', ASSET_S3_PREFIX: '/models' });
    expect(attempt).toThrow(/ASSET_S3_ENDPOINT/);
    expect(attempt).toThrow(/ASSET_S3_PREFIX: must be path segments ending in "\/"/);
    expect(attempt).toThrow(/ASSET_S3_BUCKET: is required when ASSET_STORAGE_DRIVER is s3/);
    expect(attempt).toThrow(/ASSET_S3_REGION: is required when ASSET_STORAGE_DRIVER is s3/);
    expect(() => load({ ASSET_STORAGE_DRIVER: 'gcs', ASSET_STORAGE_DIR: '/x' })).toThrow(/ASSET_STORAGE_DRIVER/);
  });
});
