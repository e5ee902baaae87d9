import { freePort, startOwnRedisServer } from '@partner/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedService } from '@partner/http';
import type { GatewayConfig } from './config.js';
import { startGateway } from './server.js';
import { type GatewayHarness, startGatewayHarness } from './testing/app-harness.js';

// The gateway's /readyz as server.ts wires it: its Postgres is required; its Redis and the services it
// proxies to (their /healthz) are reported, and leave it ready, since it serves without them.
let harness: GatewayHarness;
const started: StartedService[] = [];
beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(async () => {
  await Promise.all(started.map((gateway) => gateway.stop()));
  await harness.close();
});

async function readyzOf(config: GatewayConfig) {
  const gateway = await startGateway({ ...config, port: 0 });
  started.push(gateway);
  const res = await fetch(`http://127.0.0.1:${gateway.port}/readyz`);
  return { status: res.status, body: await res.json() };
}

describe('the gateway’s GET /readyz', () => {
  it('is 200 ready with Postgres, Redis and every upstream live', async () => {
    expect(await readyzOf(harness.config)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { postgres: 'ok', redis: 'ok', catalog: 'ok', webhooks: 'ok', concierge: 'ok' } },
    });
  });

  it('names an upstream that is down, and stays in rotation for the routes of the others', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    expect(await readyzOf({ ...harness.config, services: { ...harness.config.services, catalog: down } })).toEqual({
      status: 200,
      body: { status: 'degraded', checks: { postgres: 'ok', redis: 'ok', catalog: 'unreachable', webhooks: 'ok', concierge: 'ok' } },
    });
  });

  it('is 503 naming postgres when its database is unreachable', async () => {
    const databaseUrl = `postgres://postgres@127.0.0.1:${await freePort()}/partner`;
    const answer = await readyzOf({ ...harness.config, databaseUrl });
    expect(answer).toEqual({
      status: 503,
      body: { status: 'unready', checks: { postgres: 'unreachable', redis: 'ok', catalog: 'ok', webhooks: 'ok', concierge: 'ok' } },
    });
  });

  it('names Redis when it is down, and stays ready: the gateway counts its share of the limits meanwhile', async () => {
    const redis = await startOwnRedisServer();
    try {
      const gateway = await startGateway({ ...harness.config, redisUrl: redis.url, port: 0 });
      started.push(gateway);
      await redis.kill();
      await expect
        .poll(async () => {
          const res = await fetch(`http://127.0.0.1:${gateway.port}/readyz`);
          return { status: res.status, body: await res.json() };
        })
        .toEqual({
          status: 200,
          body: { status: 'degraded', checks: { postgres: 'ok', redis: 'unreachable', catalog: 'ok', webhooks: 'ok', concierge: 'ok' } },
        });
    } finally {
      await redis.stop();
    }
  });
});
