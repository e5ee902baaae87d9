import { describe, expect, it } from 'vitest';
import { ConfigError } from '@partner/http';
import { loadConciergeConfig } from './config.js';

describe('concierge configuration', () => {
  it('asks for OPENAI_API_KEY beside OPENAI_BASE_URL, reported together with every other bad variable', () => {
    const load = () =>
      loadConciergeConfig({
        DATABASE_URL: 'postgres://127.0.0.1/partner',
        INTERNAL_JWT_PUBLIC_KEY: 'pem',
        OPENAI_BASE_URL: 'http://127.0.0.1:9999/v1',
        CONCIERGE_MAX_OUTPUT_TOKENS: '10',
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/REDIS_URL[\s\S]*CONCIERGE_MAX_OUTPUT_TOKENS[\s\S]*OPENAI_API_KEY: is required when OPENAI_BASE_URL is set/);
  });

  it('bounds the menu index cache in bytes and the index builds in threads', () => {
    const base = { DATABASE_URL: 'postgres://127.0.0.1/partner', REDIS_URL: 'redis://127.0.0.1', INTERNAL_JWT_PUBLIC_KEY: 'pem' };
    expect(loadConciergeConfig(base).menuIndex).toEqual({ maxBytes: 512 * 1024 * 1024, buildThreads: 1 });
    expect(loadConciergeConfig({ ...base, CONCIERGE_INDEX_CACHE_MB: '64', CONCIERGE_INDEX_BUILD_THREADS: '2' }).menuIndex).toEqual({
      maxBytes: 64 * 1024 * 1024,
      buildThreads: 2,
    });
    expect(() => loadConciergeConfig({ ...base, CONCIERGE_INDEX_CACHE_MB: '0', CONCIERGE_INDEX_BUILD_THREADS: 'many' })).toThrow(
      /CONCIERGE_INDEX_CACHE_MB[\s\S]*CONCIERGE_INDEX_BUILD_THREADS/,
    );
  });

  it('bounds the life of the thumbnails’ signed URLs as the catalog does, under the sweep’s grace', () => {
    const base = { DATABASE_URL: 'postgres://127.0.0.1/partner', REDIS_URL: 'redis://127.0.0.1', INTERNAL_JWT_PUBLIC_KEY: 'pem' };
    const signing = { ...base, ASSET_SIGNING_SECRET: 's'.repeat(32) };
    expect(loadConciergeConfig({ ...signing, ASSET_URL_TTL_SECONDS: '604800' }).assets?.ttlSeconds).toBe(604800);
    expect(() => loadConciergeConfig({ ...signing, ASSET_URL_TTL_SECONDS: '604801' })).toThrow(/ASSET_URL_TTL_SECONDS/);
  });
});
