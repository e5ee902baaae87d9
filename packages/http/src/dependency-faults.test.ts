import { createServer, type Server } from 'node:net';
import { sql } from 'kysely';
import { pino } from 'pino';
import { ClientClosedError, createClient, ErrorReply } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@partner/contracts';
import { createDb, type Db } from '@partner/db';
import { freePort, useTestDatabase, type TestDatabase } from '@partner/testing';
import { classifyDependencyFault, FaultLog } from './dependency-faults.js';

/** An error as node-postgres builds it from a server message: a SQLSTATE and a severity. */
const postgresError = (code: string, message = 'from postgres') => Object.assign(new Error(message), { code, severity: 'FATAL' });
const kindOf = (err: unknown) => classifyDependencyFault(err)?.kind ?? null;
const deadlines = { connectTimeoutMs: 300, statementTimeoutMs: 200, idleInTransactionTimeoutMs: 1000 };

describe('classifyDependencyFault', () => {
  it.each([
    ['08006', 'postgres:unreachable'], // connection_failure
    ['08001', 'postgres:unreachable'],
    ['53300', 'postgres:overloaded'], // too_many_connections
    ['57P01', 'postgres:shutdown'], // admin_shutdown
    ['57P02', 'postgres:shutdown'],
    ['57P03', 'postgres:shutdown'], // cannot_connect_now
    ['25006', 'postgres:read-only'], // read_only_sql_transaction
    ['57014', 'postgres:timeout'], // statement_timeout
    ['25P03', 'postgres:timeout'], // idle_in_transaction_session_timeout
  ])('SQLSTATE %s is %s', (code, kind) => {
    expect(kindOf(postgresError(code))).toBe(kind);
  });

  it('leaves what a request or our code got wrong to be a 4xx or a 500', () => {
    expect(kindOf(postgresError('23505'))).toBeNull(); // unique_violation
    expect(kindOf(postgresError('42P01'))).toBeNull(); // undefined_table: a bug
    expect(kindOf(postgresError('22P02'))).toBeNull(); // invalid_text_representation
    expect(kindOf(postgresError('08P01'))).toBeNull(); // protocol_violation: too many bind parameters, say
    expect(kindOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(kindOf(new ErrorReply('ERR wrong number of arguments'))).toBeNull();
    expect(kindOf('a string')).toBeNull();
    expect(kindOf(null)).toBeNull();
  });

  it('knows socket errors, node-postgres messages and Redis clients', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE']) {
      expect(kindOf(Object.assign(new Error(code), { code }))).toBe('network:unreachable');
    }
    expect(kindOf(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }))).toBe('network:timeout');
    expect(kindOf(new Error('Connection terminated unexpectedly'))).toBe('postgres:unreachable');
    expect(kindOf(new Error('timeout exceeded when trying to connect'))).toBe('postgres:timeout');
    expect(kindOf(new Error('Query read timeout'))).toBe('postgres:timeout');
    expect(kindOf(new ClientClosedError())).toBe('redis:unreachable');
    expect(kindOf(new ErrorReply('LOADING Redis is loading the dataset in memory'))).toBe('redis:unreachable');
    expect(kindOf(new ErrorReply('READONLY You cannot write against a read only replica.'))).toBe('redis:read-only');
    expect(kindOf(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('network:timeout');
  });

  it('looks through causes and aggregate errors (localhost refused on ::1 and 127.0.0.1)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(kindOf(new AggregateError([refused, refused]))).toBe('network:unreachable');
    expect(kindOf(new AppError('service_unavailable', 'wrapped', { cause: postgresError('57P01') }))).toBe('postgres:shutdown');
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(kindOf(loop)).toBeNull();
  });
});

describe('classifyDependencyFault on the real thing', () => {
  let database: TestDatabase;
  let silent: Server;
  let silentPort: number;
  const pools: Db[] = [];
  const pool = (url: string, max = 2) => {
    const db = createDb({ url, max, deadlines });
    pools.push(db);
    return db;
  };

  beforeAll(async () => {
    database = await useTestDatabase();
    // Accepts connections and never says a word: a frozen Postgres, as its clients see it.
    silent = createServer(() => {});
    silentPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await Promise.all(pools.map((db) => db.destroy()));
    silent.close();
    await database.drop();
  });

  it('a statement past statement_timeout is postgres:timeout', async () => {
    const err = await sql`select pg_sleep(2)`.execute(pool(database.url)).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('57014');
    expect(kindOf(err)).toBe('postgres:timeout');
  });

  it('a transaction left idle past idle_in_transaction_session_timeout is ended by Postgres', async () => {
    const err = await pool(database.url)
      .transaction()
      .execute(async (tx) => {
        await sql`select 1`.execute(tx);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await sql`select 1`.execute(tx);
      })
      .catch((e: unknown) => e);
    expect(kindOf(err)).not.toBeNull();
  });

  it('a closed port is a refused connection, at once', async () => {
    const started = Date.now();
    const err = await sql`select 1`.execute(pool(`postgres://postgres@127.0.0.1:${await freePort()}/none`)).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('network:unreachable');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a server that never answers is given up after the connect timeout', async () => {
    const started = Date.now();
    const err = await sql`select 1`.execute(pool(`postgres://postgres@127.0.0.1:${silentPort}/none`)).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('postgres:unreachable'); // "Connection terminated due to connection timeout"
    expect(Date.now() - started).toBeLessThan(deadlines.connectTimeoutMs + 500);
  });

  it('waiting for a free connection of a full pool is bounded by the same timeout', async () => {
    const db = pool(database.url, 1);
    const held = db.connection().execute(() => new Promise((resolve) => setTimeout(resolve, 1000)));
    const started = Date.now();
    const err = await sql`select 1`.execute(db).catch((e: unknown) => e);
    expect((err as Error).message).toBe('timeout exceeded when trying to connect');
    expect(kindOf(err)).toBe('postgres:timeout');
    expect(Date.now() - started).toBeLessThan(deadlines.connectTimeoutMs + 500);
    await held;
  });

  it('a Redis client that is closed, or cannot connect', async () => {
    const client = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
    client.destroy();
    expect(kindOf(await client.get('x').catch((e: unknown) => e))).toBe('redis:unreachable');
    const refused = await createClient({ url: `redis://127.0.0.1:${await freePort()}`, socket: { reconnectStrategy: false } })
      .connect()
      .catch((e: unknown) => e);
    expect(kindOf(refused)).toBe('network:unreachable');
  });
});

describe('FaultLog', () => {
  afterEach(() => vi.useRealTimers());

  it('logs the first of a burst, counts the rest and sums them up once per interval', () => {
    vi.useFakeTimers();
    const lines: { kind: string; msg: string; count?: number }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
    const faults = new FaultLog(logger, { intervalMs: 10_000 });
    for (let i = 0; i < 500; i++) faults.note('postgres:unreachable', {}, 'dependency fault');
    faults.note('redis:timeout', {}, 'dependency fault');
    expect(lines.map((line) => [line.kind, line.msg])).toEqual([
      ['postgres:unreachable', 'dependency fault'],
      ['redis:timeout', 'dependency fault'],
    ]);
    vi.advanceTimersByTime(10_000);
    expect(lines.slice(2)).toEqual([
      expect.objectContaining({ kind: 'postgres:unreachable', count: 499, msg: '499 more postgres:unreachable in the last 10 s' }),
    ]);
    // The next occurrence opens a new burst, logged again.
    faults.note('postgres:unreachable', {}, 'dependency fault');
    expect(lines).toHaveLength(4);
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(4);
  });
});
