import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@partner/db';
import { UsageMeter } from '@partner/entitlements';
import { adminDatabaseUrl, freePort, keyPrincipalFor, withDatabase } from '@partner/testing';
import { createApp } from './app.js';
import type { CatalogDeps } from './deps.js';
import { ItemAccessCache } from './items/item-access-cache.js';
import { expectError, useAppHarness } from './testing/app-harness.js';
import { seedItem, seedRestaurant } from './testing/factories.js';

const h = useAppHarness();

/**
 * What a service sets from DATABASE_*_TIMEOUT_MS. The client gives up on a frozen Postgres a second
 * after the statement timeout (6 s), well after the request deadline: a 503 within the deadline's
 * bound below comes from the deadline, not from the pool.
 */
const deadlines = { connectTimeoutMs: 300, statementTimeoutMs: 5000, idleInTransactionTimeoutMs: 2000 };
const REQUEST_DEADLINE_MS = 1200;
/** Room for a loaded machine between the deadline and the answer's arrival, still far below 6 s. */
const ANSWER_SLACK_MS = 2000;

/**
 * A TCP proxy in front of the real Postgres that can freeze: paused, it neither reads nor forwards a
 * byte on any connection, old or new, as a Postgres stopped by SIGSTOP looks to its clients.
 */
class FreezableProxy {
  private readonly sockets = new Set<Socket>();
  private frozen = false;
  readonly server: Server;

  constructor(upstream: { host: string; port: number }) {
    this.server = createServer((client) => {
      const server = connect(upstream.port, upstream.host);
      client.pipe(server).pipe(client);
      for (const socket of [client, server]) {
        this.sockets.add(socket);
        socket.on('error', () => {});
        socket.once('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          server.destroy();
        });
        if (this.frozen) socket.pause();
      }
    });
  }

  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) socket.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const socket of this.sockets) socket.resume();
  }

  close(): void {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
  }
}

/** The catalog with its database behind `db` (every part of it that reads or writes Postgres). */
function catalogOn(db: Db): ReturnType<typeof createApp> {
  const deps: CatalogDeps = {
    ...h.deps,
    db,
    usageMeter: new UsageMeter(db),
    itemAccess: new ItemAccessCache(db, { ttlMs: 60_000 }),
    requestDeadlineMs: REQUEST_DEADLINE_MS,
  };
  return createApp(deps);
}

describe('a route whose database is unreachable', () => {
  const pools: Db[] = [];
  const pool = (url: string) => {
    const db = createDb({ url, max: 4, deadlines });
    pools.push(db);
    return db;
  };
  let proxy: FreezableProxy;
  let proxiedUrl: string;

  beforeAll(async () => {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(h.deps.db);
    const upstream = new URL(adminDatabaseUrl());
    proxy = new FreezableProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    const port = await freePort();
    await new Promise<void>((resolve) => proxy.server.listen(port, '127.0.0.1', resolve));
    const proxied = new URL(withDatabase(adminDatabaseUrl(), rows[0]!.name));
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    proxiedUrl = proxied.toString();
  });
  afterAll(async () => {
    proxy.thaw();
    await Promise.all(pools.map((db) => db.destroy()));
    proxy.close();
  });

  it('answers 503 service_unavailable with Retry-After at once when Postgres refuses connections', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const item = await seedItem(h.deps.db, restaurant.id, { name: 'Carbonara' });
    const app = catalogOn(pool(`postgres://postgres@127.0.0.1:${await freePort()}/closed`));
    const started = Date.now();
    const res = await request(app)
      .get(`/v1/partner/items/${item.id}`)
      .set(h.caller.headers(keyPrincipalFor(owner)));
    expectError(res, 503, 'service_unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeLessThan(REQUEST_DEADLINE_MS);
  });

  it('answers 503 with Retry-After within the request deadline while Postgres is frozen, and serves again once it thaws', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const items = [];
    for (const name of ['Bruschetta', 'Carbonara', 'Tiramisu']) items.push(await seedItem(h.deps.db, restaurant.id, { name }));
    const app = catalogOn(pool(proxiedUrl));
    const detail = (id: string) =>
      request(app)
        .get(`/v1/partner/items/${id}`)
        .set(h.caller.headers(keyPrincipalFor(owner)));
    // Pooled connections exist (through the proxy) before the freeze, as in a running service.
    expect((await detail(items[0]!.id)).status).toBe(200);

    proxy.freeze();
    const frozen = await Promise.all(
      [items[1]!, items[2]!].map(async (item) => {
        const started = Date.now();
        const res = await detail(item.id);
        return { res, tookMs: Date.now() - started };
      }),
    );
    for (const { res, tookMs } of frozen) {
      expectError(res, 503, 'service_unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(tookMs).toBeLessThan(REQUEST_DEADLINE_MS + ANSWER_SLACK_MS);
    }

    proxy.thaw();
    // Recovery needs no restart: the next requests are served (within the statement timeouts).
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await detail(items[1]!.id)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  });
});
