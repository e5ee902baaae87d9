import { afterEach, describe, expect, it } from 'vitest';
import { startOwnRedisServer, type OwnRedisServer } from '@partner/testing';
import { closeRedis, connectRedis } from './redis.js';

let server: OwnRedisServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('closeRedis', () => {
  it('closes a client whose Redis is gone within its bound, where quit() waits for a reconnect forever', async () => {
    server = await startOwnRedisServer();
    const client = await connectRedis(server.url, () => {}, { commandTimeoutMs: 200 });
    await server.stop();
    await expect.poll(() => client.isReady).toBe(false);
    const started = Date.now();
    await closeRedis(client, 500);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(client.isOpen).toBe(false);
  });

  it('lets a healthy client finish its pending commands before it closes', async () => {
    server = await startOwnRedisServer();
    const client = await connectRedis(server.url, () => {});
    const pending = client.set('k', 'v');
    await closeRedis(client);
    expect(await pending).toBe('OK');
    expect(client.isOpen).toBe(false);
  });
});

describe('connectRedis', () => {
  it('gives clients of different options one class (node-redis builds ~20 MB of garbage per class)', async () => {
    server = await startOwnRedisServer();
    const clients = [
      await connectRedis(server.url, () => {}),
      await connectRedis(server.url, () => {}, { callerBoundsWaits: true }),
      await connectRedis(server.url, () => {}, { commandTimeoutMs: 200 }),
    ];
    expect(new Set(clients.map((client) => client.constructor)).size).toBe(1);
    expect(await clients[1]!.set('k', 'v')).toBe('OK');
    expect(await clients[2]!.get('k')).toBe('v');
    await Promise.all(clients.map((client) => closeRedis(client)));
  });
});
