import { describe, expect, it } from 'vitest';
import { ConfigError } from '@partner/http';
import { loadCatalogConfig } from './config.js';

const secret = (letter: string) => letter.repeat(32);

describe('catalog configuration', () => {
  it('reports a secret reused for two purposes together with every other bad variable, naming none of their values', () => {
    const load = () =>
      loadCatalogConfig({
        REDIS_URL: 'redis://127.0.0.1:6379',
        INTERNAL_JWT_PUBLIC_KEY: 'pem',
        ASSET_STORAGE_DIR: '/tmp/assets',
        CURSOR_SIGNING_SECRET: secret('c'),
        VIEW_TOKEN_SECRET: secret('c'),
        ASSET_SIGNING_SECRET: secret('a'),
        MENU_PAGE_KEY_SECRET: secret('m'),
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/DATABASE_URL[\s\S]*VIEW_TOKEN_SECRET: must differ from CURSOR_SIGNING_SECRET/);
    expect(load).not.toThrow(secret('c'));
  });
});
