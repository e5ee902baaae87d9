import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateInternalKeyPair } from '@partner/auth';
import { benchRedisUrl } from '@partner/bench-kit';
import { SealingKeys } from '@partner/signing';

// The services as production runs them (`node dist/main.js`, configured by the environment), for the
// benchmarks that start several of them against one bench database.

export const SERVICES = ['gateway', 'catalog', 'webhooks', 'concierge', 'console'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const PORT_VARIABLE: Record<ServiceName, string> = {
  gateway: 'GATEWAY_PORT',
  catalog: 'CATALOG_PORT',
  webhooks: 'WEBHOOKS_PORT',
  concierge: 'CONCIERGE_PORT',
  console: 'CONSOLE_PORT',
};

export const mainOf = (service: ServiceName) => fileURLToPath(new URL(`../../services/${service}/dist/main.js`, import.meta.url));

/**
 * One valid configuration of the whole platform (the variables e2e's process test starts each service
 * with): each service reads the ones it needs. Secrets are fresh per call, so one run shares one set.
 */
export function platformEnvironment(databaseUrl: string): Record<string, string> {
  const jwt = generateInternalKeyPair();
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: benchRedisUrl,
    REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:`,
    INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey,
    INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
    CONSOLE_ADMIN_TOKEN: randomBytes(16).toString('hex'),
    CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SEALING_KEYS: SealingKeys.generateSpec('bench'),
    ASSET_SIGNING_SECRET: randomBytes(32).toString('hex'),
    MENU_PAGE_KEY_SECRET: randomBytes(32).toString('hex'),
    VIEW_TOKEN_SECRET: randomBytes(32).toString('hex'),
    ASSET_STORAGE_DIR: join(tmpdir(), 'ptr-bench-assets'),
    LOG_LEVEL: 'warn',
  };
}
