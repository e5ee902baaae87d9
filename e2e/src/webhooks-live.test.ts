import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '@partner/sdk';
import { grantAccess, integratorWithKey, restaurantWithKey, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// The webhooks service as it runs in production: its dispatcher loop on, nobody driving it by hand.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ webhooksEnv: { WEBHOOK_DISPATCHER_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(() => stack.stop());

describe('webhooks end to end', () => {
  it('an integrator registers through the gateway; an item changed through console reaches it within a second, verifiably signed', async () => {
    const receiver = await startReceiver();
    const { restaurant } = await restaurantWithKey(stack);
    const integrator = await integratorWithKey(stack);
    await grantAccess(stack, integrator.org.id, restaurant.id);
    const created = await request(stack.gatewayUrl)
      .post('/v1/partner/webhook-endpoints')
      .set(integrator.auth)
      .set('Idempotency-Key', 'register-once')
      .send({ url: receiver.url, enabledEvents: ['item.updated'] });
    expect(created.status).toBe(201);
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });

    const changedAt = Date.now();
    await stack.console.updateItem(item.id, { priceCents: 700 });
    await expect.poll(() => receiver.received.length, { timeout: 1000, interval: 10 }).toBe(1);
    expect(receiver.received[0]!.at - changedAt).toBeLessThan(1000);
    const event = await verifyWebhook(receiver.received[0]!.body, receiver.received[0]!.headers, created.body.data.secret);
    expect(event).toMatchObject({ type: 'item.updated', data: { itemId: item.id } });
    await receiver.close();
  });
});
