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
});
