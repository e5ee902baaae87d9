import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebhookEndpointWithSecret, ZWebhookRecovery, zData } from '@partner/contracts';
import { verifyWebhook } from '@partner/sdk';
import { expectError } from './expect-error.js';
import { ownDispatcher } from './own-dispatcher.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// Issue 15: an endpoint down for longer than the retry schedule loses nothing once it is back. Its
// events end failed (the schedule ran out) or skipped (sent while it was disabled); re-enabling it with
// a recovery sends each of them again, once, with its original event id.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ webhooksEnv: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(() => stack.stop());

const HOUR = 3600_000;

const dispatcherWithClock = (base: number) => ownDispatcher(stack, { base });

const eventIdOf = (body: string) => (JSON.parse(body) as { id: string }).id;

describe('recovering an endpoint after an outage longer than the retry schedule', () => {
  it('re-enabled with a recovery, the endpoint receives every event it missed, each once, with its original id', async () => {
    let down = true;
    const receiver = await startReceiver(() => (down ? 503 : 204));
    const { restaurant, auth } = await restaurantWithKey(stack);
    const gateway = () => request(stack.gatewayUrl);
    const created = await gateway()
      .post('/v1/partner/webhook-endpoints')
      .set(auth)
      .send({ url: receiver.url, enabledEvents: ['item.created', 'item.updated'] });
    const endpoint = zData(ZWebhookEndpointWithSecret).parse(created.body).data;
    const log = async () =>
      (await gateway().get('/v1/partner/webhook-deliveries').query({ endpointId: endpoint.id, limit: '1000' }).set(auth)).body.data as {
        id: string;
        eventId: string;
        status: string;
      }[];

    // The outage began three hours ago: the whole schedule (about two hours) ran out before now.
    const outageStart = Date.now() - 3 * HOUR;
    const soup = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    await stack.console.createItem(restaurant.id, { name: 'Bread', priceCents: 300 });
    await stack.console.updateItem(soup.id, { priceCents: 650 });
    const { clock, dispatcher, close } = dispatcherWithClock(outageStart);
    const isDisabled = async () =>
      (await stack.db.selectFrom('webhook_endpoints').select('status').where('id', '=', endpoint.id).executeTakeFirstOrThrow()).status ===
      'disabled';
    for (let step = 0; step < 1000 && !(await isDisabled()); step++) {
      await dispatcher.tick();
      clock.now += 10_000;
    }
    expect(await isDisabled()).toBe(true);
    expect(clock.now).toBeLessThan(Date.now());
    // Attempts to the endpoint left after the disabling are not sent; what it was sent was refused.
    await dispatcher.tick();
    const duringOutage = receiver.received.length;
    expect(duringOutage).toBeGreaterThanOrEqual(8);

    // While disabled, a new event is kept as skipped.
    await stack.console.createItem(restaurant.id, { name: 'Salad', priceCents: 800 });
    clock.now += 10_000;
    await dispatcher.tick();
    const missed = await log();
    const missedEventIds = [...new Set(missed.map((delivery) => delivery.eventId))];
    expect(missedEventIds).toHaveLength(4);
    expect(missed.some((delivery) => delivery.status === 'skipped')).toBe(true);
    expect(missed.every((delivery) => ['failed', 'skipped'].includes(delivery.status))).toBe(true);
    expect(receiver.received.length).toBe(duringOutage);

    // The Partner API refuses to recover a disabled endpoint, and says what to do.
    const since = new Date(outageStart - 60_000).toISOString();
    const refused = await gateway().post(`/v1/partner/webhook-endpoints/${endpoint.id}/recover`).set(auth).send({ since });
    expectError(refused, 409, 'endpoint_disabled');
    expect(refused.body.error.message).toMatch(/re-enable/i);

    // The receiver is back; the operator re-enables the endpoint and recovers it in one go.
    down = false;
    const admin = { Authorization: `Bearer ${stack.adminToken}` };
    const enabled = await request(stack.consoleUrl)
      .post(`/console/webhook-endpoints/${endpoint.id}/enable`)
      .set(admin)
      .send({ recoverSince: since });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ id: endpoint.id, status: 'active', disabledReason: null });
    expect(ZWebhookRecovery.parse(enabled.body.meta.recovery)).toMatchObject({
      endpointId: endpoint.id,
      since,
      queued: 4,
      held: 0,
      truncated: false,
    });

    // Asked again through the Partner API, there is nothing left to recover.
    const again = await gateway().post(`/v1/partner/webhook-endpoints/${endpoint.id}/recover`).set(auth).send({ since });
    expect(again.status).toBe(202);
    expect(zData(ZWebhookRecovery).parse(again.body).data).toMatchObject({ queued: 0, truncated: false });

    clock.now = Date.now() + 1000;
    await dispatcher.tick();
    await dispatcher.tick();
    await close();
    const recovered = receiver.received.slice(duringOutage);
    expect(recovered.map((entry) => eventIdOf(entry.body)).sort()).toEqual([...missedEventIds].sort());
    for (const entry of recovered) {
      expect(await verifyWebhook(entry.body, entry.headers, endpoint.secret, { now: () => clock.now })).toBeTruthy();
      // A new delivery id, the same event id.
      expect(missed.map((delivery) => delivery.id)).not.toContain(entry.headers['x-service-delivery']);
    }
    const after = await log();
    expect(
      after
        .filter((delivery) => delivery.status === 'succeeded')
        .map((delivery) => delivery.eventId)
        .sort(),
    ).toEqual([...missedEventIds].sort());
    await receiver.close();
  }, 120_000);

  it('through the Partner API alone: re-enable (PATCH), then recover; another owner gets 404', async () => {
    const receiver = await startReceiver(() => 410);
    const { restaurant, auth } = await restaurantWithKey(stack);
    const gateway = () => request(stack.gatewayUrl);
    const endpoint = (
      await gateway()
        .post('/v1/partner/webhook-endpoints')
        .set(auth)
        .send({ url: receiver.url, enabledEvents: ['item.created'] })
    ).body.data as {
      id: string;
    };
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });
    const { clock, dispatcher, close } = dispatcherWithClock(Date.now() - HOUR);
    await dispatcher.tick(); // 410 Gone: disabled at once
    const since = new Date(clock.now - 60_000).toISOString();
    const stranger = await restaurantWithKey(stack);
    expectError(
      await gateway().post(`/v1/partner/webhook-endpoints/${endpoint.id}/recover`).set(stranger.auth).send({ since }),
      404,
      'not_found',
    );

    const patched = await gateway().patch(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(auth).send({ status: 'active' });
    expect(patched.body.data.status).toBe('active');
    const res = await gateway().post(`/v1/partner/webhook-endpoints/${endpoint.id}/recover`).set(auth).send({ since });
    expect(res.status).toBe(202);
    expect(zData(ZWebhookRecovery).parse(res.body).data).toMatchObject({ endpointId: endpoint.id, queued: 1 });
    expectError(
      await gateway().post(`/v1/partner/webhook-endpoints/${endpoint.id}/recover`).set(auth).send({ since: 'yesterday' }),
      400,
      'invalid_request',
      'since',
    );
    clock.now = Date.now() + 1000;
    await dispatcher.tick();
    await close();
    expect(receiver.received.map((entry) => eventIdOf(entry.body))).toHaveLength(2);
    const [first, second] = receiver.received.map((entry) => JSON.parse(entry.body) as { id: string; data: { itemId: string } });
    expect(second!.id).toBe(first!.id);
    expect(second!.data.itemId).toBe(item.id);
    await receiver.close();
  });
});
