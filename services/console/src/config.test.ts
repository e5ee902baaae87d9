import { describe, expect, it } from 'vitest';
import { loadConsoleConfig } from './config.js';

const base = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/partner',
  REDIS_URL: 'redis://127.0.0.1:6379',
  CONSOLE_ADMIN_TOKEN: 'a'.repeat(24),
  MENU_PAGE_KEY_SECRET: 'm'.repeat(32),
  INTERNAL_JWT_PRIVATE_KEY: 'pem',
  ASSET_STORAGE_DIR: '/var/assets',
};

describe('console storage and sweep settings', () => {
  it('sweeps hourly, keeping unreferenced files a day, by default', () => {
    const config = loadConsoleConfig(base);
    expect(config.storage).toEqual({ driver: 'local', dir: '/var/assets' });
    expect(config.sweep).toEqual({ graceMs: 24 * 3600 * 1000, intervalMs: 3600 * 1000 });
  });

  it('refuses a grace period that a signed URL (plus the upload margin) could outlive', () => {
    const load = (env: Record<string, string>) => () => loadConsoleConfig({ ...base, ...env });
    expect(load({ ASSET_URL_TTL_SECONDS: '900', ASSET_SWEEP_GRACE_SECONDS: '4499' })).toThrow(
      /ASSET_SWEEP_GRACE_SECONDS: must be at least 4500 \(ASSET_URL_TTL_SECONDS plus 3600\)/,
    );
    expect(load({ ASSET_URL_TTL_SECONDS: '900', ASSET_SWEEP_GRACE_SECONDS: '4500' })).not.toThrow();
    expect(load({ ASSET_URL_TTL_SECONDS: '86400' })).toThrow(/ASSET_SWEEP_GRACE_SECONDS/);
  });

  it('takes an S3 bucket instead of a directory', () => {
    const { ASSET_STORAGE_DIR: _dir, ...withoutDir } = base;
    const config = loadConsoleConfig({
      ...withoutDir,
      ASSET_STORAGE_DRIVER: 's3',
      ASSET_S3_BUCKET: 'assets',
      ASSET_S3_REGION: 'eu-west-1',
    });
    expect(config.storage).toMatchObject({ driver: 's3', bucket: 'assets', region: 'eu-west-1', forcePathStyle: false });
    expect(() => loadConsoleConfig(withoutDir)).toThrow(/ASSET_STORAGE_DIR: is required when ASSET_STORAGE_DRIVER is local/);
  });
});
