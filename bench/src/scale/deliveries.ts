import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { median } from '@partner/bench-kit';
import type { Db } from '@partner/db';
import { SealingKeys } from '@partner/signing';
import { insertWebhookEndpoint, sealEndpointSecret } from '@partner/webhooks/testing';

// The dispatcher's two figures, against a local receiver: deliveries per second draining a burst of
// events to one endpoint, and fan-out, from one event written to the outbox to its receipt at every
// endpoint subscribed to it.

export interface DeliveryBench {
  /** The endpoint of the burst, whose delivery history the curve grows. */
  burstEndpointId: string;
  /** `count` events to one endpoint written at once; deliveries per second until the last receipt. */
  burst(count: number): Promise<number>;
  /** Milliseconds from one event's write to its receipt at all fan-out endpoints; median of `rounds`. */
  fanOut(rounds: number): Promise<number>;
  close(): Promise<void>;
}

export async function prepareDeliveries(
  db: Db,
  restaurantId: string,
  sealingSpec: string,
  fanOutEndpoints: number,
): Promise<DeliveryBench> {
  const received = new Map<string, number>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const key = `${req.url} ${(JSON.parse(body) as { id: string }).id}`;
      if (!received.has(key)) received.set(key, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const keys = SealingKeys.parse(sealingSpec);
  const endpoint = async (id: string, path: string, type: string) => {
    await insertWebhookEndpoint(db, {
      id,
      owner: { kind: 'restaurant', id: restaurantId },
      url: `${origin}${path}`,
      enabledEvents: [type],
      description: null,
      sealedSecret: sealEndpointSecret(keys, id, `whsec_${randomBytes(16).toString('hex')}`),
    });
    return id;
  };
  const burstEndpoint = await endpoint('we_benchburst', '/burst', 'item.updated');
  const fanOutPaths = Array.from({ length: fanOutEndpoints }, (_, i) => `/fan${i}`);
  await Promise.all(fanOutPaths.map((path, i) => endpoint(`we_benchfan${i}`, path, 'item.created')));

  let serial = 0;
  async function emit(type: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, () => `evt_bench${String(serial++).padStart(12, '0')}`);
    const data = JSON.stringify({ itemId: 'itm_bench000000000001', restaurantId, itemSlug: 'dish-1', itemName: 'Dish 1' });
    await db
      .insertInto('outbox_events')
      .values(ids.map((id) => ({ id, type, restaurant_id: restaurantId, data })))
      .execute();
    return ids;
  }
  async function receipts(keys: string[], timeoutMs: number): Promise<number[]> {
    const deadline = Date.now() + timeoutMs;
    while (keys.some((key) => !received.has(key))) {
      if (Date.now() > deadline)
        throw new Error(`only ${keys.filter((key) => received.has(key)).length} of ${keys.length} deliveries arrived`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return keys.map((key) => received.get(key)!);
  }

  return {
    burstEndpointId: burstEndpoint,
    async burst(count) {
      const started = Date.now();
      const ids = await emit('item.updated', count);
      const last = Math.max(
        ...(await receipts(
          ids.map((id) => `/burst ${id}`),
          300_000,
        )),
      );
      return count / ((last - started) / 1000);
    },
    async fanOut(rounds) {
      const times: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const written = Date.now();
        const [id] = await emit('item.created', 1);
        times.push(
          Math.max(
            ...(await receipts(
              fanOutPaths.map((path) => `${path} ${id}`),
              60_000,
            )),
          ) - written,
        );
      }
      return median(times);
    },
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}
