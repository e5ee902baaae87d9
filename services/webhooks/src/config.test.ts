import { describe, expect, it } from 'vitest';
import { ConfigError } from '@partner/http';
import { SealingKeys } from '@partner/signing';
import { loadWebhooksConfig } from './config.js';

const base = {
  DATABASE_URL: 'postgres://127.0.0.1/partner',
  REDIS_URL: 'redis://127.0.0.1:6379',
  INTERNAL_JWT_PUBLIC_KEY: 'pem',
  CURSOR_SIGNING_SECRET: 'c'.repeat(32),
  WEBHOOK_SEALING_KEYS: SealingKeys.generateSpec('k1'),
};

describe('webhooks configuration', () => {
  it('reports a quiet period longer than the maximum delay together with every other bad variable', () => {
    const load = () =>
      loadWebhooksConfig({
        ...base,
        CURSOR_SIGNING_SECRET: 'short',
        WEBHOOK_MENU_QUIET_SECONDS: '90',
        WEBHOOK_MENU_MAX_DELAY_SECONDS: '60',
      });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/CURSOR_SIGNING_SECRET[\s\S]*WEBHOOK_MENU_QUIET_SECONDS: must not exceed WEBHOOK_MENU_MAX_DELAY_SECONDS/);
  });

  it('refuses a malformed sealing key ring without printing it', () => {
    const load = () => loadWebhooksConfig({ ...base, WEBHOOK_SEALING_KEYS: 'k1-with-no-key-material' });
    expect(load).toThrow(/WEBHOOK_SEALING_KEYS: each entry must be/);
    expect(load).not.toThrow(/k1-with-no-key-material/);
  });

  it('listens for new outbox events on DATABASE_URL unless WEBHOOK_LISTEN_URL names Postgres itself', () => {
    expect(loadWebhooksConfig(base).listenUrl).toBe(base.DATABASE_URL);
    const direct = 'postgres://partner:secret@10.0.0.5:5432/partner';
    expect(loadWebhooksConfig({ ...base, WEBHOOK_LISTEN_URL: direct }).listenUrl).toBe(direct);
    const load = () => loadWebhooksConfig({ ...base, WEBHOOK_LISTEN_URL: 'pgbouncer:6432/partner?password=secret' });
    expect(load).toThrow(/WEBHOOK_LISTEN_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(load).not.toThrow(/secret/);
  });

  it('keeps the delivery log 30 days and consumed outbox events 24 hours unless told, and never the log less than a recovery reaches', () => {
    expect(loadWebhooksConfig(base)).toMatchObject({
      housekeepingMs: 5_000,
      retention: { deliveriesMs: 30 * 24 * 3600_000, outboxMs: 24 * 3600_000 },
    });
    expect(loadWebhooksConfig({ ...base, WEBHOOK_DELIVERY_RETENTION_DAYS: '90', WEBHOOK_OUTBOX_RETENTION_HOURS: '2' }).retention).toEqual({
      deliveriesMs: 90 * 24 * 3600_000,
      outboxMs: 2 * 3600_000,
    });
    const load = () => loadWebhooksConfig({ ...base, WEBHOOK_DELIVERY_RETENTION_DAYS: '29', WEBHOOK_OUTBOX_RETENTION_HOURS: '0' });
    expect(load).toThrow(/WEBHOOK_DELIVERY_RETENTION_DAYS: must be at least 30 \(a recovery reaches back 30 days\)/);
    expect(load).toThrow(/WEBHOOK_OUTBOX_RETENTION_HOURS/);
  });
});
