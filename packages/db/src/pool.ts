import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// int8 (counts, sums) as numbers: our counters stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;

export interface DbOptions {
  url: string;
  max?: number;
  applicationName?: string;
  /**
   * false: commits return before their WAL reaches disk. For services whose writes are counters and
   * caches (a Postgres crash may forget the last fraction of a second of them, never corrupt them).
   */
  synchronousCommit?: boolean;
  /** Errors of idle connections (Postgres restarted, a connection killed); the pool replaces them. */
  onIdleError?: (err: Error) => void;
}

export function createDb(options: DbOptions): Db {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    idleTimeoutMillis: 30_000,
    ...(options.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
  });
  // Without a listener, an idle connection that dies (a Postgres restart) would crash the process.
  pool.on('error', (err) => options.onIdleError?.(err));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
