import type { Db } from '@partner/db';
import type { Logger, RedisClient } from '@partner/kit';

export interface ConsoleDeps {
  db: Db;
  redis: RedisClient;
  redisPrefix: string;
  logger: Logger;
  adminToken: string;
  publicUrl: string;
  now: () => Date;
}
