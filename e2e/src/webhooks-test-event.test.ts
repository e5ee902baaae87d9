import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import request from 'supertest';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZPingEvent, ZWebhookDelivery, ZWebhookEndpointWithSecret, zData } from '@partner/contracts';
import { expectError } from './expect-error.js';
import { ownDispatcher } from './own-dispatcher.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';
import { type Received, startReceiver } from './webhook-receiver.js';

// Day one of an integrator: register an endpoint on their own machine, send it a test event through
// the gateway, then receive a real one from the dispatcher; each verified as receivers verify them,
// with the libraries they install.

const stripe = new Stripe('sk_test_verification_only');

const headerStrings = (received: Received) =>
  Object.fromEntries(Object.entries(received.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** What the receiver answers, by the `who` of the endpoint's query (200 unless set). */
const answers = new Map<string, number>();
beforeAll(async () => {
  // As `pnpm start` runs it: a receiver on this machine may be registered.
  stack = await startStack({ webhooksEnv: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await startReceiver((received) => answers.get(new URL(received.url, 'http://receiver').searchParams.get('who')!) ?? 200);
});
afterAll(async () => {
  await receiver.close();
  await stack.stop();
});

let endpoints = 0;
async function register(auth: Record<string, string>, body: Record<string, unknown> = {}, answer?: number) {
  const who = `endpoint-${++endpoints}`;
  if (answer) answers.set(who, answer);
  const res = await request(stack.gatewayUrl)
    .post('/v1/partner/webhook-endpoints')
    .set(auth)
    .send({ url: `${receiver.url}?who=${who}`, ...body });
  expect(res.status).toBe(201);
  const endpoint = zData(ZWebhookEndpointWithSecret).parse(res.body).data;
  return { endpoint, hits: () => receiver.received.filter((hit) => hit.url.endsWith(`who=${who}`)) };
}

const sendTest = (auth: Record<string, string>, id: string) =>
  request(stack.gatewayUrl).post(`/v1/partner/webhook-endpoints/${id}/test`).set(auth);

describe('the test event through the gateway', () => {
  it('sends a Standard Webhooks ping the libraries verify, answers with the delivery, and lists it in the log', async () => {
    const { auth } = await restaurantWithKey(stack);
    const { endpoint, hits } = await register(auth, { signatureScheme: 'standard-webhooks', enabledEvents: ['menu.updated'] });
    expect(endpoint.signatureScheme).toBe('standard-webhooks');

    const res = await sendTest(auth, endpoint.id);
    expect(res.status).toBe(200);
    const delivery = zData(ZWebhookDelivery).parse(res.body).data;
    expect(delivery).toMatchObject({ eventType: 'ping', endpointId: endpoint.id, status: 'succeeded', responseStatus: 200, error: null });

    const [hit, ...more] = hits();
    expect(more).toEqual([]);
    const ping = ZPingEvent.parse(new StandardWebhook(endpoint.secret).verify(hit!.body, headerStrings(hit!)));
    expect(ping).toMatchObject({ id: delivery.eventId, type: 'ping', data: { endpointId: endpoint.id } });
    expect(() => new SvixWebhook(endpoint.secret).verify(hit!.body, headerStrings(hit!))).not.toThrow();
    expect(hit!.headers['webhook-id']).toBe(delivery.eventId);

    const log = await request(stack.gatewayUrl).get('/v1/partner/webhook-deliveries').query({ endpointId: endpoint.id }).set(auth);
    expect(log.body.data).toEqual([delivery]);
  });

  it("signs with the default scheme, which stripe's constructEvent verifies, until the endpoint switches", async () => {
    const { auth } = await restaurantWithKey(stack);
    const { endpoint, hits } = await register(auth);
    await sendTest(auth, endpoint.id);
    expect(
      stripe.webhooks.constructEvent(hits()[0]!.body, String(hits()[0]!.headers['x-service-signature']), endpoint.secret),
    ).toMatchObject({
      type: 'ping',
    });

    const patched = await request(stack.gatewayUrl)
      .patch(`/v1/partner/webhook-endpoints/${endpoint.id}`)
      .set(auth)
      .send({ signatureScheme: 'standard-webhooks' });
    expect(patched.body.data.signatureScheme).toBe('standard-webhooks');
    await sendTest(auth, endpoint.id);
    const switched = hits()[1]!;
    expect(switched.headers).not.toHaveProperty('x-service-signature');
    expect(new StandardWebhook(endpoint.secret).verify(switched.body, headerStrings(switched))).toMatchObject({ type: 'ping' });
  });

  it("answers 200 with the receiver's failure, and keeps the endpoint active", async () => {
    const { auth } = await restaurantWithKey(stack);
    const { endpoint } = await register(auth, {}, 503);
    const res = await sendTest(auth, endpoint.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'failed', responseStatus: 503, error: 'HTTP 503', nextAttemptAt: null });
    const read = await request(stack.gatewayUrl).get(`/v1/partner/webhook-endpoints/${endpoint.id}`).set(auth);
    expect(read.body.data.status).toBe('active');
  });

  it("answers another owner's endpoint with 404 and sends nothing; an Idempotency-Key retry replays without sending again", async () => {
    const owner = await restaurantWithKey(stack);
    const { endpoint, hits } = await register(owner.auth);
    const stranger = await restaurantWithKey(stack);
    expectError(await sendTest(stranger.auth, endpoint.id), 404, 'not_found');
    expect(hits()).toEqual([]);

    const first = await sendTest(owner.auth, endpoint.id).set('Idempotency-Key', 'ping-once');
    const retry = await sendTest(owner.auth, endpoint.id).set('Idempotency-Key', 'ping-once');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(hits()).toHaveLength(1);
  });

  it('needs webhooks:manage, like every endpoint route', async () => {
    const owner = await restaurantWithKey(stack);
    const { endpoint } = await register(owner.auth);
    const readOnly = await restaurantWithKey(stack, { scopes: ['menu:read'] });
    expectError(await sendTest(readOnly.auth, endpoint.id), 403, 'forbidden_scope');
  });
});

describe('a real delivery after the test', () => {
  it('goes out from the dispatcher signed under each endpoint scheme, and the libraries verify both', async () => {
    const { restaurant, auth } = await restaurantWithKey(stack);
    const standard = await register(auth, { signatureScheme: 'standard-webhooks', enabledEvents: ['item.created'] });
    const stripeStyle = await register(auth, { enabledEvents: ['item.created'] });
    const item = await stack.console.createItem(restaurant.id, { name: 'Soup', priceCents: 600 });

    const { dispatcher, close } = ownDispatcher(stack);
    await dispatcher.tick();
    await close();

    const [viaStandard] = standard.hits();
    expect(new StandardWebhook(standard.endpoint.secret).verify(viaStandard!.body, headerStrings(viaStandard!))).toMatchObject({
      type: 'item.created',
      data: { itemId: item.id },
    });
    expect(() => new SvixWebhook(standard.endpoint.secret).verify(viaStandard!.body, headerStrings(viaStandard!))).not.toThrow();
    const [viaStripeStyle] = stripeStyle.hits();
    const event = stripe.webhooks.constructEvent(
      viaStripeStyle!.body,
      String(viaStripeStyle!.headers['x-service-signature']),
      stripeStyle.endpoint.secret,
    );
    expect(event).toMatchObject({ type: 'item.created', id: viaStandard!.headers['webhook-id'] });
  });
});
