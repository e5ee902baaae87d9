import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateInternalKeyPair } from '@partner/auth';
import { SealingKeys } from '@partner/signing';

/**
 * One valid configuration of the whole platform, for tests and benchmarks that start the services as
 * processes: each service reads the ones it needs. Secrets are fresh per call, so one run shares one set.
 */
export function platformEnvironment(databaseUrl: string, redisUrl: string): Record<string, string> {
  const jwt = generateInternalKeyPair();
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `p${randomBytes(3).toString('hex')}:`,
    INTERNAL_JWT_PUBLIC_KEY: jwt.publicKey,
    INTERNAL_JWT_PRIVATE_KEY: jwt.privateKey,
    CONSOLE_ADMIN_TOKEN: randomBytes(16).toString('hex'),
    CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SEALING_KEYS: SealingKeys.generateSpec('bench'),
    ASSET_SIGNING_SECRET: randomBytes(32).toString('hex'),
    MENU_PAGE_KEY_SECRET: randomBytes(32).toString('hex'),
    VIEW_TOKEN_SECRET: randomBytes(32).toString('hex'),
    ASSET_STORAGE_DIR: join(tmpdir(), 'ptr-process-assets'),
    LOG_LEVEL: 'warn',
  };
}
