import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZPingEvent, ZWebhookDelivery, ZWebhookEndpointWithSecret, zData } from '@partner/contracts';
import { newId } from '@partner/http';
import { createApp } from '../app.js';
import { WebhookSender } from '../dispatcher/sender.js';
import { type Client, startWebhooksHarness, type WebhooksHarness } from '../testing/app-harness.js';
import { expectError, expectGatewayOnly } from '../testing/http-expectations.js';
import { type Answer, type Received, startReceiver } from '../testing/receiver.js';
import { verifyWithStandardWebhooks, verifyWithStripe, verifyWithSvix } from '../testing/receiver-libraries.js';
import { arrangeEndpoint, arrangeOwner, findEndpointRow, testDispatcher } from '../testing/webhook-fixtures.js';
import { updateWebhookEndpoint } from '../webhooks.repository.js';

// POST /v1/partner/webhook-endpoints/{id}/test: a signed `ping` to that endpoint, now.

const base = '/v1/partner/webhook-endpoints';
const missingId = 'we_missing000000000000000';

/** How each path of the receiver answers (204 unless a test sets it). */
const answers = new Map<string, Answer>();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let h: WebhooksHarness;
beforeAll(async () => {
  receiver = await startReceiver((received: Received) => answers.get(received.path) ?? { status: 204 });
  // The receiver is on loopback: this service is configured as on a local stack.
  h = await startWebhooksHarness({ targets: { allowPrivate: true } });
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});

let paths = 0;
/** A new owner, its client, and an endpoint it registered through the door at a path of its own. */
async function registered(body: Record<string, unknown> = {}, answer?: Answer) {
  const { owner, principal } = await arrangeOwner(h.deps.db);
  const api = h.as(principal);
  const path = `/test-${++paths}`;
  if (answer) answers.set(path, answer);
  const res = await api.post(base).send({ url: receiver.url(path), ...body });
  expect(res.status).toBe(201);
  return { owner, principal, api, path, endpoint: zData(ZWebhookEndpointWithSecret).parse(res.body).data };
}

const sendTest = (api: Client, id: string) => api.post(`${base}/${id}/test`);

async function deliveryRows(endpointId: string) {
  return h.deps.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();
}

describe('the gateway guard', () => {
  it('lets in only the gateway token for webhooks', async () => {
    const { principal } = await arrangeOwner(h.deps.db);
    await expectGatewayOnly(h, ['post', `${base}/${missingId}/test`], principal);
  });

  it('wants an API key: an operator token is refused', async () => {
    expectError(await h.as({ kind: 'operator' }).post(`${base}/${missingId}/test`), 401, 'invalid_api_key');
  });
});

describe('POST /v1/partner/webhook-endpoints/:id/test', () => {
  it('sends a signed ping to the endpoint now and answers 200 with the delivery, which the log lists', async () => {
    const { api, path, endpoint } = await registered();
    const res = await sendTest(api, endpoint.id);
    expect(res.status).toBe(200);
    const delivery = zData(ZWebhookDelivery.strict()).parse(res.body).data;
    expect(delivery).toMatchObject({
      eventType: 'ping',
      endpointId: endpoint.id,
      attempt: 1,
      status: 'succeeded',
      responseStatus: 204,
      error: null,
      nextAttemptAt: null,
    });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(0);

    const [hit, ...more] = receiver.at(path);
    expect(more).toEqual([]);
    const ping = ZPingEvent.strict().parse(JSON.parse(hit!.body));
    expect(ping).toMatchObject({ id: delivery.eventId, type: 'ping', createdAt: delivery.createdAt, data: { endpointId: endpoint.id } });
    expect(ping.data.message.length).toBeGreaterThan(0);
    expect(hit!.headers).toMatchObject({
      'x-service-event': 'ping',
      'x-service-delivery': delivery.id,
      'content-type': 'application/json',
    });
    expect(verifyWithStripe(hit!, endpoint.secret)).toMatchObject({ id: ping.id, type: 'ping' });

    const log = await api.get('/v1/partner/webhook-deliveries').query({ eventType: 'ping' });
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([delivery]);
  });

  it('signs with the Standard Webhooks scheme when the endpoint uses it', async () => {
    const { api, path, endpoint } = await registered({ signatureScheme: 'standard-webhooks' });
    const delivery = (await sendTest(api, endpoint.id)).body.data;
    const [hit] = receiver.at(path);
    expect(verifyWithStandardWebhooks(hit!, endpoint.secret)).toMatchObject({ id: delivery.eventId, type: 'ping' });
    expect(() => verifyWithSvix(hit!, endpoint.secret)).not.toThrow();
    expect(hit!.headers['webhook-id']).toBe(delivery.eventId);
    expect(hit!.headers).not.toHaveProperty('x-service-signature');
  });

  it('goes to that endpoint alone, whatever its enabledEvents, and leaves nothing for the dispatcher', async () => {
    const { owner, api, path, endpoint } = await registered({ enabledEvents: ['menu.updated'] });
    const sibling = await arrangeEndpoint(h.deps.db, owner, { url: receiver.url(`${path}-sibling`) });
    const res = await sendTest(api, endpoint.id);
    expect(res.body.data.status).toBe('succeeded');
    expect(receiver.at(path)).toHaveLength(1);
    expect(await deliveryRows(sibling.id)).toEqual([]);

    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    const dispatcher = testDispatcher(h.deps.db, sender, 1);
    await dispatcher.tick();
    await sender.close();
    expect(receiver.at(path)).toHaveLength(1);
    expect(receiver.at(`${path}-sibling`)).toEqual([]);
    expect((await deliveryRows(endpoint.id)).map((row) => row.status)).toEqual(['succeeded']);
  });

  it("answers 200 with the receiver's failure; a ping is not retried and does not disable the endpoint, even on 410", async () => {
    for (const status of [500, 410]) {
      const { api, endpoint } = await registered({}, { status });
      const res = await sendTest(api, endpoint.id);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'failed', responseStatus: status, error: `HTTP ${status}`, nextAttemptAt: null });
      expect((await deliveryRows(endpoint.id)).map((row) => row.status)).toEqual(['failed']);
      expect(await findEndpointRow(h.deps.db, endpoint.id)).toMatchObject({ status: 'active', disabled_reason: null });
    }
  });

  it('waits for the receiver within the request deadline, and says when it did not answer in time', async () => {
    const { principal, endpoint } = await registered({}, { status: 204, afterMs: 2_500 });
    // A 3-second deadline leaves the receiver 1 second.
    const app = createApp({ ...h.deps, requestDeadlineMs: 3_000 });
    const res = await request(app).post(`${base}/${endpoint.id}/test`).set(h.caller.headers(principal));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'failed', responseStatus: null, error: 'no answer within 1 s' });
  });

  it('applies the target rules of every delivery: a refused target fails, naming the setting that would allow it', async () => {
    const { owner, principal } = await arrangeOwner(h.deps.db);
    const path = `/test-${++paths}`;
    const endpoint = await arrangeEndpoint(h.deps.db, owner, { url: receiver.url(path) });
    const sender = new WebhookSender({ allowPrivate: false }, () => new Date());
    const app = createApp({ ...h.deps, targets: { allowPrivate: false }, sender });
    const res = await request(app).post(`${base}/${endpoint.id}/test`).set(h.caller.headers(principal));
    await sender.close();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'failed', responseStatus: null });
    expect(res.body.data.error).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    expect(receiver.at(path)).toEqual([]);
  });

  it('sends to a disabled endpoint too (to check a fix before re-enabling) and leaves it disabled', async () => {
    const { api, path, endpoint } = await registered();
    await updateWebhookEndpoint(h.deps.db, endpoint.id, { status: 'disabled', disabled_reason: 'Every retry failed.' });
    const res = await sendTest(api, endpoint.id);
    expect(res.body.data).toMatchObject({ status: 'succeeded', responseStatus: 204 });
    expect(receiver.at(path)).toHaveLength(1);
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toMatchObject({ status: 'disabled', disabled_reason: 'Every retry failed.' });
  });

  it('with an Idempotency-Key, sends once: a retry replays the first answer', async () => {
    const { api, path, endpoint } = await registered();
    const key = newId('idem');
    const first = await sendTest(api, endpoint.id).set('Idempotency-Key', key);
    const retry = await sendTest(api, endpoint.id).set('Idempotency-Key', key);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(receiver.at(path)).toHaveLength(1);
    expect(await deliveryRows(endpoint.id)).toHaveLength(1);
  });

  it('is not resent (409, send a new test) and not recovered', async () => {
    const { api, endpoint } = await registered({}, { status: 500 });
    const since = new Date(Date.now() - 60_000).toISOString();
    const delivery = (await sendTest(api, endpoint.id)).body.data;
    const resend = await api.post(`/v1/partner/webhook-deliveries/${delivery.id}/resend`);
    expectError(resend, 409, 'conflict');
    expect(resend.body.error.message).toContain(`${base}/${endpoint.id}/test`);
    const recovered = await api.post(`${base}/${endpoint.id}/recover`).send({ since });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data).toMatchObject({ queued: 0, held: 0 });
    expect(await deliveryRows(endpoint.id)).toHaveLength(1);
  });
});

describe("another owner's endpoint", () => {
  it('answers 404 exactly as for a missing id, and sends nothing', async () => {
    const victim = await registered();
    const { api } = await registered();
    const foreign = await sendTest(api, victim.endpoint.id);
    const missing = await sendTest(api, missingId);
    expectError(foreign, 404, 'not_found');
    expectError(missing, 404, 'not_found');
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    expect(receiver.at(victim.path)).toEqual([]);
    expect(await deliveryRows(victim.endpoint.id)).toEqual([]);
  });

  it('a deleted endpoint is 404 too', async () => {
    const { api, path, endpoint } = await registered();
    expect((await api.delete(`${base}/${endpoint.id}`)).status).toBe(200);
    expectError(await sendTest(api, endpoint.id), 404, 'not_found');
    expect(receiver.at(path)).toEqual([]);
  });
});
