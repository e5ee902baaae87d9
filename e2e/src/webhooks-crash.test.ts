import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInternalKeyPair } from '@partner/auth';
import { insertRestaurant, type TestDatabase, useTestDatabase } from '@partner/testing';
import { SealingKeys } from '@partner/signing';
import { insertWebhookEndpoint, sealEndpointSecret } from '@partner/webhooks/testing';
import { REDIS_URL } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// The dispatcher as production runs it (`node dist/main.js`), killed with SIGKILL in the middle of a
// burst and started again: every event must still reach the receiver.
const main = fileURLToPath(new URL('../../services/webhooks/dist/main.js', import.meta.url));

let database: TestDatabase;
const sealingSpec = SealingKeys.generateSpec('crash');
const children: ReturnType<typeof spawn>[] = [];
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await database.drop();
});

function startDispatcher() {
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: `crash${randomBytes(3).toString('hex')}:`,
      INTERNAL_JWT_PUBLIC_KEY: generateInternalKeyPair().publicKey,
      CURSOR_SIGNING_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_SEALING_KEYS: sealingSpec,
      // Any free port: a random one may collide with a connection's ephemeral port and crash the process.
      WEBHOOKS_PORT: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_LEASE_SECONDS: '15',
      // An attempt that times out on a loaded machine is retried within seconds, not the default minute.
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: process.env.CRASH_DEBUG ? 'inherit' : 'ignore',
  });
  children.push(child);
  return child;
}

describe('dispatcher crash', () => {
  it('a dispatcher killed with SIGKILL during a burst of 1,000 events loses none of them', async () => {
    const receiver = await startReceiver();
    const restaurant = await insertRestaurant(database.db, {
      id: 'rst_crash000000000000000000',
      name: 'Crash Cafe',
      slug: 'crash-cafe',
      currency: 'USD',
    });
    await insertWebhookEndpoint(database.db, {
      id: 'we_crash0000000000000000000',
      owner: { kind: 'restaurant', id: restaurant.id },
      url: receiver.url,
      enabledEvents: ['item.updated'],
      description: null,
      sealedSecret: sealEndpointSecret(SealingKeys.parse(sealingSpec), 'we_crash0000000000000000000', 'whsec_crash'),
    });
    const eventIds = Array.from({ length: 1000 }, (_, i) => `evt_crash${String(i).padStart(6, '0')}`);
    await database.db
      .insertInto('outbox_events')
      .values(
        eventIds.map((id, i) => ({
          id,
          type: 'item.updated',
          restaurant_id: restaurant.id,
          data: JSON.stringify({ itemId: `itm_crash${i}`, restaurantId: restaurant.id, itemSlug: `dish-${i}`, itemName: `Dish ${i}` }),
        })),
      )
      .execute();

    const first = startDispatcher();
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < 150 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = receiver.received.length;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(1000);

    startDispatcher();
    const seen = () => new Set(receiver.received.map((hit) => JSON.parse(hit.body).id as string));
    const finish = Date.now() + 90_000;
    while (seen().size < 1000 && Date.now() < finish) await new Promise((resolve) => setTimeout(resolve, 50));

    expect([...seen()].sort()).toEqual(eventIds);
    // Redelivered events carry the same evt_ id; each attempt its own delivery id.
    const deliveryIds = receiver.received.map((hit) => hit.headers['x-service-delivery']);
    expect(new Set(deliveryIds).size).toBe(deliveryIds.length);
    await receiver.close();
  }, 120_000);
});
