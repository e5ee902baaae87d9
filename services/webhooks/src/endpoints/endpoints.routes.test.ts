import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebhookEndpointWithSecret, zData } from '@partner/contracts';
import { createApp } from '../app.js';
import { type Client, MAX_ENDPOINTS_PER_OWNER, type Route, startWebhooksHarness, type WebhooksHarness } from '../testing/app-harness.js';
import { expectError, expectGatewayOnly } from '../testing/http-expectations.js';
import { arrangeEndpoint, arrangeOwner, findEndpointRow, newestFirst, PUBLIC_TARGET, storedSecrets } from '../testing/webhook-fixtures.js';

const base = '/v1/partner/webhook-endpoints';
const missingId = 'we_missing000000000000000';
const NOW = new Date('2031-03-04T05:06:07.000Z');

let h: WebhooksHarness;
beforeAll(async () => {
  h = await startWebhooksHarness({ now: () => NOW });
});
afterAll(() => h.close());

/** A fresh owner and a client calling as its key. */
async function ownerClient() {
  const { owner, principal } = await arrangeOwner(h.deps.db);
  return { owner, principal, api: h.as(principal) };
}

async function register(api: Client, body: object = { url: PUBLIC_TARGET }) {
  const res = await api.post(base).send(body);
  expect(res.status).toBe(201);
  return zData(ZWebhookEndpointWithSecret).parse(res.body).data;
}

describe('the gateway guard', () => {
  const routes: Route[] = [
    ['post', base],
    ['get', base],
    ['get', `${base}/${missingId}`],
    ['patch', `${base}/${missingId}`],
    ['delete', `${base}/${missingId}`],
    ['post', `${base}/${missingId}/rotate-secret`],
  ];

  it.each(routes)('%s %s lets in only the gateway token for webhooks', async (...route) => {
    const { principal } = await arrangeOwner(h.deps.db);
    await expectGatewayOnly(h, route, principal);
  });

  it('wants an API key: an operator token is refused', async () => {
    expectError(await h.as({ kind: 'operator' }).get(base), 401, 'invalid_api_key');
  });
});

describe('POST /v1/partner/webhook-endpoints', () => {
  it('registers an endpoint for the calling owner and shows its secret', async () => {
    const { owner, api } = await ownerClient();
    const res = await api.post(base).send({
      url: PUBLIC_TARGET,
      enabledEvents: ['item.updated', 'item.created', 'item.updated'],
      description: 'orders',
    });
    expect(res.status).toBe(201);
    const endpoint = zData(ZWebhookEndpointWithSecret).parse(res.body).data;
    expect(endpoint).toMatchObject({
      url: PUBLIC_TARGET,
      enabledEvents: ['item.updated', 'item.created'],
      description: 'orders',
      status: 'active',
      disabledReason: null,
      signatureScheme: 'x-service-signature',
    });
    // base64 of 32 random bytes: a valid Standard Webhooks secret, whichever scheme signs.
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toMatchObject({
      owner_kind: 'restaurant',
      owner_id: owner.id,
      enabled_events: ['item.updated', 'item.created'],
    });
    const stored = await storedSecrets(h.deps.db, endpoint.id);
    expect(stored.secret).toBe(endpoint.secret);
    expect(stored.sealed[0]).not.toContain(endpoint.secret.slice('whsec_'.length));
  });

  it('subscribes to every event unless told otherwise', async () => {
    const { api } = await ownerClient();
    expect((await register(api)).enabledEvents).toEqual(['*']);
  });

  it.each([
    ['no url', {}, 'url'],
    ['not a URL', { url: 'hooks.example.com' }, 'url'],
    ['another scheme', { url: 'ftp://93.184.215.14/hooks' }, 'url'],
    ['no events', { url: PUBLIC_TARGET, enabledEvents: [] }, 'enabledEvents'],
    ['an unknown event', { url: PUBLIC_TARGET, enabledEvents: ['item.eaten'] }, 'enabledEvents.0'],
    ['a secret of its own', { url: PUBLIC_TARGET, secret: 'whsec_mine' }, 'secret'],
    ['a long description', { url: PUBLIC_TARGET, description: 'x'.repeat(501) }, 'description'],
  ])('refuses %s and stores nothing', async (_name, body, param) => {
    const { api } = await ownerClient();
    expectError(await api.post(base).send(body), 400, 'invalid_request', param);
    expect((await api.get(base)).body.data).toEqual([]);
  });

  it.each([
    ['http', 'http://93.184.215.14/hooks'],
    ['a loopback address', 'https://127.0.0.1/hooks'],
    ['a private address', 'https://10.0.0.1/hooks'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a name that resolves to loopback', 'https://localhost/hooks'],
    ['credentials in the URL', 'https://user:pass@93.184.215.14/hooks'],
  ])('refuses %s as a target', async (_name, url) => {
    const { api } = await ownerClient();
    expectError(await api.post(base).send({ url }), 400, 'invalid_request', 'url');
    expect((await api.get(base)).body.data).toEqual([]);
  });

  it.each([
    ['http', 'http://93.184.215.14/hooks'],
    ['a loopback address', 'https://127.0.0.1/hooks'],
    ['a name that resolves to loopback', 'https://localhost/hooks'],
  ])('names the setting that would allow %s on a local stack', async (_name, url) => {
    const { api } = await ownerClient();
    const res = await api.post(base).send({ url });
    expectError(res, 400, 'invalid_request', 'url');
    expect(res.body.error.message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
  });

  it('takes http and loopback targets when private targets are allowed (development only)', async () => {
    const { principal } = await ownerClient();
    const app = createApp({ ...h.deps, targets: { allowPrivate: true } });
    const res = await request(app).post(base).set(h.caller.headers(principal)).send({ url: 'http://127.0.0.1:9/hooks' });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toBe('http://127.0.0.1:9/hooks');
  });
});

describe('the endpoint cap', () => {
  it(`refuses an owner's endpoint past ${MAX_ENDPOINTS_PER_OWNER} with 409 endpoint_limit_reached; deleting one frees a place`, async () => {
    const { api } = await ownerClient();
    const endpoints = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_OWNER; i++) endpoints.push(await register(api));
    expectError(await api.post(base).send({ url: PUBLIC_TARGET }), 409, 'endpoint_limit_reached');
    expect((await register((await ownerClient()).api)).id).toMatch(/^we_/);
    await api.delete(`${base}/${endpoints[0]!.id}`).expect(200);
    expect((await register(api)).id).toMatch(/^we_/);
  });

  it('holds under concurrent creations', async () => {
    const { owner, api } = await ownerClient();
    const answers = await Promise.all(
      Array.from({ length: 3 * MAX_ENDPOINTS_PER_OWNER }, () => api.post(base).send({ url: PUBLIC_TARGET })),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(MAX_ENDPOINTS_PER_OWNER);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(2 * MAX_ENDPOINTS_PER_OWNER);
    const stored = await h.deps.db.selectFrom('webhook_endpoints').select('id').where('owner_id', '=', owner.id).execute();
    expect(stored).toHaveLength(MAX_ENDPOINTS_PER_OWNER);
  });
});

describe('the signature scheme', () => {
  it('is chosen at registration, shown on every read and stored', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api, { url: PUBLIC_TARGET, signatureScheme: 'standard-webhooks' });
    expect(endpoint.signatureScheme).toBe('standard-webhooks');
    expect((await api.get(`${base}/${endpoint.id}`)).body.data.signatureScheme).toBe('standard-webhooks');
    expect((await api.get(base)).body.data[0].signatureScheme).toBe('standard-webhooks');
    expect((await findEndpointRow(h.deps.db, endpoint.id)).signature_scheme).toBe('standard-webhooks');
  });

  it('refuses a scheme it does not know', async () => {
    const { api } = await ownerClient();
    expectError(await api.post(base).send({ url: PUBLIC_TARGET, signatureScheme: 'hmac' }), 400, 'invalid_request', 'signatureScheme');
    const endpoint = await register(api);
    expectError(await api.patch(`${base}/${endpoint.id}`).send({ signatureScheme: null }), 400, 'invalid_request', 'signatureScheme');
    expect((await findEndpointRow(h.deps.db, endpoint.id)).signature_scheme).toBe('x-service-signature');
  });

  it('changes with a patch, both ways, keeping the secret and everything else', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api, { url: PUBLIC_TARGET, enabledEvents: ['item.created'] });
    const switched = await api.patch(`${base}/${endpoint.id}`).send({ signatureScheme: 'standard-webhooks' });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ signatureScheme: 'standard-webhooks', enabledEvents: ['item.created'], url: PUBLIC_TARGET });
    expect((await storedSecrets(h.deps.db, endpoint.id)).secret).toBe(endpoint.secret);
    const back = await api.patch(`${base}/${endpoint.id}`).send({ signatureScheme: 'x-service-signature' });
    expect(back.body.data.signatureScheme).toBe('x-service-signature');
    expect((await api.patch(`${base}/${endpoint.id}`).send({ description: 'x' })).body.data.signatureScheme).toBe('x-service-signature');
  });

  it('switches to Standard Webhooks only once the secret can sign it: a secret stored by hand before is rotated first', async () => {
    const { owner, api } = await ownerClient();
    const endpoint = await arrangeEndpoint(h.deps.db, owner, { secret: 'whsec_storedByHandBeforeSecretsWereBase64' });
    const refused = await api.patch(`${base}/${endpoint.id}`).send({ signatureScheme: 'standard-webhooks', description: 'new' });
    expectError(refused, 409, 'conflict', 'signatureScheme');
    expect(refused.body.error.message).toMatch(/rotate the secret/);
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toMatchObject({ signature_scheme: 'x-service-signature', description: null });
    expect((await api.post(`${base}/${endpoint.id}/rotate-secret`).send({ overlapSeconds: 0 })).status).toBe(200);
    expect((await api.patch(`${base}/${endpoint.id}`).send({ signatureScheme: 'standard-webhooks' })).body.data.signatureScheme).toBe(
      'standard-webhooks',
    );
  });
});

describe('GET /v1/partner/webhook-endpoints', () => {
  it("lists the owner's own endpoints, newest first, without secrets", async () => {
    const { api } = await ownerClient();
    const registered = [await register(api), await register(api, { url: 'https://93.184.215.15/hooks' })];
    await register((await ownerClient()).api);

    const res = await api.get(base);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ nextCursor: null });
    const shown = registered.map(({ secret: _secret, ...endpoint }) => endpoint);
    expect(res.body.data).toEqual(shown.sort(newestFirst));
  });

  it('pages with limit and cursors bound to the owner', async () => {
    const { api } = await ownerClient();
    const registered = [await register(api), await register(api), await register(api)].sort(newestFirst).map((endpoint) => endpoint.id);
    const first = await api.get(base).query({ limit: '2' });
    expect(first.body.data.map((endpoint: { id: string }) => endpoint.id)).toEqual(registered.slice(0, 2));
    const second = await api.get(base).query({ limit: '2', cursor: first.body.meta.nextCursor });
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: registered[2] })], meta: { nextCursor: null } });

    expectError(await (await ownerClient()).api.get(base).query({ cursor: first.body.meta.nextCursor }), 400, 'invalid_cursor', 'cursor');
    expectError(await api.get(base).query({ limit: '0' }), 400, 'invalid_request', 'limit');
  });

  it('gets one endpoint without its secret', async () => {
    const { api } = await ownerClient();
    const { secret, ...shown } = await register(api);
    const res = await api.get(`${base}/${shown.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(shown);
    expect(JSON.stringify(res.body)).not.toContain(secret);
  });
});

describe('PATCH /v1/partner/webhook-endpoints/:id', () => {
  it('changes the URL, events and description', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    const res = await api
      .patch(`${base}/${endpoint.id}`)
      .send({ url: 'https://93.184.215.15/v2', enabledEvents: ['menu.updated'], description: 'menu sync' });
    expect(res.status).toBe(200);
    const expected = { url: 'https://93.184.215.15/v2', enabledEvents: ['menu.updated'], description: 'menu sync', status: 'active' };
    expect(res.body.data).toMatchObject(expected);
    expect((await api.get(`${base}/${endpoint.id}`)).body.data).toMatchObject(expected);
  });

  it('leaves the fields a patch does not name as they were', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api, { url: PUBLIC_TARGET, enabledEvents: ['item.created'], description: 'before' });
    const res = await api.patch(`${base}/${endpoint.id}`).send({ description: 'after' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ url: PUBLIC_TARGET, enabledEvents: ['item.created'], description: 'after' });
    expect((await findEndpointRow(h.deps.db, endpoint.id)).enabled_events).toEqual(['item.created']);
  });

  it('re-enables a disabled endpoint and clears the reason', async () => {
    const { owner, api } = await ownerClient();
    const endpoint = await arrangeEndpoint(h.deps.db, owner, { disabledReason: 'Every retry of a delivery failed.' });
    const res = await api.patch(`${base}/${endpoint.id}`).send({ status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', disabledReason: null });
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toMatchObject({ status: 'active', disabled_reason: null });
  });

  it.each([
    ['disabling (only the dispatcher disables)', { status: 'disabled' }, 'status'],
    ['an http URL', { url: 'http://93.184.215.14/hooks' }, 'url'],
    ['a private URL', { url: 'https://192.168.1.1/hooks' }, 'url'],
    ['no events', { enabledEvents: [] }, 'enabledEvents'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
  ])('refuses %s and changes nothing', async (_name, body, param) => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    const before = await findEndpointRow(h.deps.db, endpoint.id);
    expectError(await api.patch(`${base}/${endpoint.id}`).send(body), 400, 'invalid_request', param);
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toEqual(before);
  });
});

describe('DELETE /v1/partner/webhook-endpoints/:id', () => {
  it('deletes the endpoint: it is gone from reads, writes and the list', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    const res = await api.delete(`${base}/${endpoint.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: endpoint.id, deleted: true });
    expect((await findEndpointRow(h.deps.db, endpoint.id)).deleted_at).toBeInstanceOf(Date);
    expectError(await api.get(`${base}/${endpoint.id}`), 404, 'not_found');
    expectError(await api.delete(`${base}/${endpoint.id}`), 404, 'not_found');
    expectError(await api.post(`${base}/${endpoint.id}/rotate-secret`), 404, 'not_found');
    expect((await api.get(base)).body.data).toEqual([]);
  });
});

describe('POST /v1/partner/webhook-endpoints/:id/rotate-secret', () => {
  it('shows a new secret once; the old one keeps signing for the overlap asked for', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    const res = await api.post(`${base}/${endpoint.id}/rotate-secret`).send({ overlapSeconds: 3600 });
    expect(res.status).toBe(200);
    const rotated = zData(ZWebhookEndpointWithSecret).parse(res.body).data;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(await storedSecrets(h.deps.db, endpoint.id)).toMatchObject({
      secret: rotated.secret,
      previousSecret: endpoint.secret,
      previousExpiresAt: new Date(NOW.getTime() + 3600_000),
    });
    expect((await api.get(`${base}/${endpoint.id}`)).body.data).not.toHaveProperty('secret');
  });

  it('keeps the old secret for 24 hours when no overlap is given', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    expect((await api.post(`${base}/${endpoint.id}/rotate-secret`)).status).toBe(200);
    expect((await findEndpointRow(h.deps.db, endpoint.id)).previous_secret_expires_at).toEqual(new Date(NOW.getTime() + 24 * 3600_000));
  });

  it('drops the old secret at once with an overlap of 0', async () => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    const res = await api.post(`${base}/${endpoint.id}/rotate-secret`).send({ overlapSeconds: 0 });
    expect(await storedSecrets(h.deps.db, endpoint.id)).toMatchObject({
      secret: res.body.data.secret,
      previousSecret: null,
      previousExpiresAt: null,
    });
  });

  it.each([
    ['a negative overlap', { overlapSeconds: -1 }, 'overlapSeconds'],
    ['a fractional overlap', { overlapSeconds: 1.5 }, 'overlapSeconds'],
    ['an overlap over 7 days', { overlapSeconds: 7 * 24 * 3600 + 1 }, 'overlapSeconds'],
    ['an unknown field', { secret: 'whsec_mine' }, 'secret'],
  ])('refuses %s and keeps the secret', async (_name, body, param) => {
    const { api } = await ownerClient();
    const endpoint = await register(api);
    expectError(await api.post(`${base}/${endpoint.id}/rotate-secret`).send(body), 400, 'invalid_request', param);
    expect((await storedSecrets(h.deps.db, endpoint.id)).secret).toBe(endpoint.secret);
  });
});

describe("another owner's endpoint", () => {
  const attempts: [string, (api: Client, id: string) => request.Test][] = [
    ['get', (api, id) => api.get(`${base}/${id}`)],
    ['patch', (api, id) => api.patch(`${base}/${id}`).send({ description: 'mine now' })],
    ['delete', (api, id) => api.delete(`${base}/${id}`)],
    ['rotate-secret', (api, id) => api.post(`${base}/${id}/rotate-secret`).send({ overlapSeconds: 0 })],
  ];

  it.each(attempts)('%s answers 404 exactly as for a missing id, and changes nothing', async (_name, attempt) => {
    const victim = await ownerClient();
    const endpoint = await register(victim.api);
    const before = await findEndpointRow(h.deps.db, endpoint.id);
    const { api } = await ownerClient();

    const foreign = await attempt(api, endpoint.id);
    const missing = await attempt(api, missingId);
    expectError(foreign, 404, 'not_found');
    expectError(missing, 404, 'not_found');
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    expect(await findEndpointRow(h.deps.db, endpoint.id)).toEqual(before);
    expect((await api.get(base)).body.data).toEqual([]);
  });
});
