import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// int8 (counts, sums) as numbers: our counters stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;

/**
 * How long a service waits on Postgres (docs/configuration.md). A service sets all three; tools
 * (migrations, tests, benchmarks) leave them unset and wait as long as their work takes.
 */
export interface DbDeadlines {
  /**
   * Connecting a new connection, and waiting for a free one when the pool is full: node-postgres
   * applies `connectionTimeoutMillis` to both ("timeout exceeded when trying to connect").
   */
  connectTimeoutMs: number;
  /**
   * `statement_timeout` (Postgres cancels the statement, 57014). A frozen server cancels nothing, so
   * the client also gives up this long plus a second after sending (`query_timeout`).
   */
  statementTimeoutMs: number;
  /** `idle_in_transaction_session_timeout`: a transaction left open and idle is ended by Postgres. */
  idleInTransactionTimeoutMs: number;
}

/** The client also stops waiting this much after Postgres should have cancelled a statement itself. */
const CLIENT_QUERY_MARGIN_MS = 1000;

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
  deadlines?: DbDeadlines;
}

export function createDb(options: DbOptions): Db {
  const { deadlines } = options;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName,
    idleTimeoutMillis: 30_000,
    // A server that vanished without a reset (a host gone) is noticed by the kernel, not never.
    keepAlive: true,
    ...(options.synchronousCommit === false ? { options: '-c synchronous_commit=off' } : {}),
    ...(deadlines
      ? {
          connectionTimeoutMillis: deadlines.connectTimeoutMs,
          statement_timeout: deadlines.statementTimeoutMs,
          idle_in_transaction_session_timeout: deadlines.idleInTransactionTimeoutMs,
          query_timeout: deadlines.statementTimeoutMs + CLIENT_QUERY_MARGIN_MS,
        }
      : {}),
  });
  // Without a listener, an idle connection that dies (a Postgres restart) would crash the process.
  pool.on('error', (err) => options.onIdleError?.(err));
  // A connection that dies while checked out between statements (a transaction ended by
  // idle_in_transaction_session_timeout, a terminated backend) emits 'error' with no query to fail and
  // no pool listener (the pool listens to idle connections only): unheard, it would crash the process.
  // Its next statement fails instead ("not queryable", a 503) and the pool drops it when released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** Kysely keeps its pool to itself; the metrics read it through here. */
const pools = new WeakMap<Db, pg.Pool>();

export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection (the pool is at its maximum). */
  waiting: number;
  max: number;
}

/** How busy a pool from `createDb` is, at this moment. */
export function poolStats(db: Db): PoolStats | null {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max } : null;
}
