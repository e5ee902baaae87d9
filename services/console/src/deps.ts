import type { Db } from '@partner/db';
import type { Logger, RedisClient } from '@partner/kit';
import type { AssetStorage } from '@partner/platform';

export interface ConsoleDeps {
  db: Db;
  redis: RedisClient;
  redisPrefix: string;
  logger: Logger;
  adminToken: string;
  publicUrl: string;
  now: () => Date;
  storage: AssetStorage;
  maxModelBytes: number;
  cursorSecret: string;
  menuPageKeySecret: string;
  menuPageKeyEnvironment: 'live' | 'test';
  publicBaseUrl: string;
}
