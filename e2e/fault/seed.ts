import { randomBytes } from 'node:crypto';
import { ConsoleClient } from '@partner/console/client';
import { SCOPES, type TEventType } from '@partner/contracts';
import type { Stack } from './stack.ts';

/** What the cases work on: one restaurant, its dishes, a live key and a webhook endpoint. */
export interface Seeded {
  console: ConsoleClient;
  restaurantId: string;
  sectionId: string;
  itemIds: string[];
  secretKey: string;
  /** Keys the load takes in turn: one key's rate limit (at most 100,000 a minute) is not what is tested. */
  loadKeys: string[];
  endpointId: string;
  /** The event types the endpoint receives: the outbox events of these types are the ones it must get. */
  endpointEvents: TEventType[];
}

export const ENDPOINT_EVENTS: TEventType[] = ['item.created', 'item.updated'];

/**
 * Seeds through the console API (the production write path, outbox events included) and the Partner
 * API for the endpoint. The endpoint exists before the first item: every item event is then its to get.
 */
export async function seed(stack: Stack, receiverUrl: string, itemCount = 20): Promise<Seeded> {
  const client = new ConsoleClient({ baseUrl: stack.consoleUrl, adminToken: stack.adminToken });
  const restaurant = await client.createRestaurant({ name: 'Fault Bistro', slug: `fault-bistro-${randomBytes(3).toString('hex')}` });
  // The load makes tens of thousands of requests: neither the monthly quota nor the key's rate is what is tested.
  await client.updateRestaurant(restaurant.id, { monthlyQuota: 1_000_000_000 });
  const createKey = (name: string) =>
    client.createKey({
      restaurantId: restaurant.id,
      type: 'secret',
      environment: 'live',
      name,
      scopes: [...SCOPES],
      rateLimitPerMin: 100_000,
    });
  const key = await createKey('Fault suite');
  const loadKeys = await Promise.all([1, 2, 3, 4].map((i) => createKey(`Fault suite load ${i}`)));
  const res = await fetch(`${stack.gatewayUrl}/v1/partner/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.value}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiverUrl, enabledEvents: ENDPOINT_EVENTS, description: 'fault suite receiver' }),
  });
  if (res.status !== 201) throw new Error(`creating the webhook endpoint answered ${res.status}: ${await res.text()}`);
  const endpoint = ((await res.json()) as { data: { id: string } }).data;
  const section = await client.createSection(restaurant.id, { name: 'Mains' });
  const itemIds: string[] = [];
  for (let i = 0; i < itemCount; i++) {
    const item = await client.createItem(restaurant.id, { name: `Dish ${i}`, priceCents: 1000 + i, sectionId: section.id });
    itemIds.push(item.id);
  }
  return {
    console: client,
    restaurantId: restaurant.id,
    sectionId: section.id,
    itemIds,
    secretKey: key.value,
    loadKeys: loadKeys.map((created) => created.value),
    endpointId: endpoint.id,
    endpointEvents: ENDPOINT_EVENTS,
  };
}
