import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { notifyOutboxChannel, type Owner } from '@partner/db';
import { newId, silentLogger } from '@partner/http';
import { adminDatabaseUrl, startPgBouncer, useTestDatabase, withDatabase } from '@partner/testing';
import { arrangeOwner, emitItemUpdated } from '../testing/webhook-fixtures.js';
import { OutboxListener, type OutboxListenerOptions } from './outbox-listener.js';

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let owner: Owner;
beforeAll(async () => {
  database = await useTestDatabase();
  ({ owner } = await arrangeOwner(database.db));
});
afterAll(() => database.drop());

/** Every listener a test started, stopped after it (stopping twice is harmless). */
const started: OutboxListener[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((listener) => listener.stop()));
});

/** Long enough for a notification to arrive on loopback, had one been sent. */
const SETTLE_MS = 300;
/** How long an expected wake-up may take on a loaded machine. */
const SOON = { timeout: 5_000 };
/** The listener's first reconnect comes this long after its connection is lost. */
const FIRST_RETRY_MS = 1_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A listener of the test's own (its application_name tells its connection apart), its wake-up count,
 * and how many times it said its LISTEN was lost.
 */
function startListener(url = database.url, options: Partial<OutboxListenerOptions> = {}) {
  const applicationName = `webhooks-listener-${randomBytes(4).toString('hex')}`;
  const logger = silentLogger();
  const warn = vi.spyOn(logger, 'warn');
  let wakes = 0;
  const listener = new OutboxListener({ url, logger, applicationName, onWake: () => void wakes++, ...options });
  listener.start();
  started.push(listener);
  return { listener, applicationName, warn, wakes: () => wakes, lost: () => listener.timesLost };
}

/** Started and connected: its first wake-up comes once it listens. */
async function listening(options: Partial<OutboxListenerOptions> = {}) {
  const started = startListener(database.url, options);
  await expect.poll(started.wakes, SOON).toBe(1);
  return started;
}

/** Probes every 100 ms, each to be heard within a second (a loaded machine's event loop may lag). */
const FAST_PROBES = { probeEveryMs: 100, probeWithinMs: 1_000 };

const backendsOf = async (applicationName: string) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${applicationName}`.execute(
      database.db,
    )
  ).rows[0]!.n;

const backendPidOf = async (applicationName: string) =>
  (await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${applicationName}`.execute(database.db)).rows[0]
    ?.pid;

const terminateBackendOf = (applicationName: string) =>
  sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`.execute(database.db);

describe('the outbox listener', () => {
  it('is woken by a committed write to the outbox', async () => {
    const { wakes } = await listening();
    await emitItemUpdated(database.db, owner);
    await expect.poll(wakes, SOON).toBe(2);
  });

  it('is woken once by a bulk insert of several events, and once by a transaction of several inserts', async () => {
    const { wakes } = await listening();
    const event = () => ({ id: newId('evt'), type: 'item.updated', restaurant_id: owner.id, integrator_org_id: null, data: '{}' });
    await database.db.insertInto('outbox_events').values([event(), event(), event()]).execute();
    await expect.poll(wakes, SOON).toBe(2);
    await database.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 3; i++) await emitItemUpdated(tx, owner);
    });
    await expect.poll(wakes, SOON).toBe(3);
    await pause(SETTLE_MS);
    expect(wakes()).toBe(3);
  });

  it('is not woken by a write that is rolled back', async () => {
    const { wakes } = await listening();
    const rolledBack = database.db.transaction().execute(async (tx) => {
      await emitItemUpdated(tx, owner);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    // Notifications arrive in commit order: once this one is in, an earlier one would have been.
    await emitItemUpdated(database.db, owner);
    await expect.poll(wakes, SOON).toBe(2);
    await pause(SETTLE_MS);
    expect(wakes()).toBe(2);
  });

  it('reconnects when its backend is terminated, wakes once for what it may have missed, and listens again', async () => {
    const { applicationName, warn, wakes } = await listening();
    await terminateBackendOf(applicationName);
    await expect.poll(wakes, SOON).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await backendsOf(applicationName)).toBe(1);
    await emitItemUpdated(database.db, owner);
    await expect.poll(wakes, SOON).toBe(3);
  });

  it('does not hold up its start when the database cannot be reached, logs why without the URL, and listens once it can', async () => {
    const name = `ptr_late_${randomBytes(5).toString('hex')}`;
    const url = new URL(withDatabase(adminDatabaseUrl(), name));
    // Trust authentication ignores a password; a server that asks for one gets its own.
    url.password ||= 'never-logged';
    const { listener, warn, wakes } = startListener(url.toString());
    const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
    await admin.connect();
    try {
      await expect.poll(() => warn.mock.calls.length, SOON).toBe(1);
      expect(JSON.stringify(warn.mock.calls)).toMatch(/does not exist/);
      expect(JSON.stringify(warn.mock.calls)).not.toContain(url.password);
      expect(wakes()).toBe(0);
      await admin.query(`create database ${name}`);
      await expect.poll(wakes, SOON).toBe(1);
    } finally {
      await listener.stop();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it('closes its connection on stop, does not reconnect, and is woken by nothing after', async () => {
    const { listener, applicationName, wakes } = await listening();
    await listener.stop();
    await expect.poll(() => backendsOf(applicationName), SOON).toBe(0);
    await emitItemUpdated(database.db, owner);
    await pause(FIRST_RETRY_MS + SETTLE_MS);
    expect(await backendsOf(applicationName)).toBe(0);
    expect(wakes()).toBe(1);
  });

  it('stopped while it waits to reconnect, never reconnects', async () => {
    const { listener, applicationName, warn, wakes } = await listening();
    await terminateBackendOf(applicationName);
    await expect.poll(() => warn.mock.calls.length, SOON).toBe(1);
    await listener.stop();
    await pause(FIRST_RETRY_MS + SETTLE_MS);
    expect(await backendsOf(applicationName)).toBe(0);
    expect(wakes()).toBe(1);
  });

  it('started twice, keeps one connection', async () => {
    const { listener, applicationName, wakes } = await listening();
    listener.start();
    await pause(SETTLE_MS);
    expect([await backendsOf(applicationName), wakes()]).toEqual([1, 1]);
  });

  it('hears its own probes and keeps its connection; a probe wakes nobody', async () => {
    const { listener, applicationName, warn, wakes, lost } = await listening({
      ...FAST_PROBES,
      probe: (payload) => notifyOutboxChannel(database.db, payload),
    });
    const backend = await backendPidOf(applicationName);
    await pause(10 * FAST_PROBES.probeEveryMs);
    expect(await backendPidOf(applicationName)).toBe(backend);
    expect(listener.listening).toBe(true);
    expect([wakes(), lost(), warn.mock.calls.length]).toEqual([1, 0, 0]);
  });

  it('takes a probe it does not hear for a lost LISTEN: says so, counts it and listens afresh', async () => {
    // Notifications reach only their own database: sent to another, the probe is never heard, as when a
    // LISTEN went through a PgBouncer in transaction mode.
    const elsewhere = new pg.Client({ connectionString: adminDatabaseUrl() });
    await elsewhere.connect();
    try {
      const { applicationName, warn, wakes, lost } = await listening({
        ...FAST_PROBES,
        probe: async (payload) => void (await elsewhere.query('select pg_notify($1, $2)', ['outbox_events', payload])),
      });
      const backend = await backendPidOf(applicationName);
      await expect.poll(lost, SOON).toBe(1);
      expect(JSON.stringify(warn.mock.calls[0])).toContain('probe went unheard');
      // Connected afresh, it wakes the dispatcher for what it may have missed.
      await expect.poll(wakes, SOON).toBe(2);
      expect(await backendPidOf(applicationName)).not.toBe(backend);
    } finally {
      await elsewhere.end();
    }
  });

  it('routed through a PgBouncer in transaction mode, learns from its own probe that it hears nothing', async () => {
    const bouncer = await startPgBouncer();
    try {
      const { warn, lost } = startListener(bouncer.urlFor(database.url), {
        ...FAST_PROBES,
        probe: (payload) => notifyOutboxChannel(database.db, payload),
      });
      await expect.poll(lost, SOON).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(warn.mock.calls[0])).toContain('probe went unheard');
    } finally {
      await bouncer.stop();
    }
  });

  it('learns nothing from a probe that could not be sent, and keeps its connection', async () => {
    const { listener, applicationName, wakes, lost } = await listening({
      ...FAST_PROBES,
      probe: () => Promise.reject(new Error('the database is away')),
    });
    const backend = await backendPidOf(applicationName);
    await pause(10 * FAST_PROBES.probeEveryMs);
    expect(await backendPidOf(applicationName)).toBe(backend);
    expect([listener.listening, wakes(), lost()]).toEqual([true, 1, 0]);
  });
});
