import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { generateInternalKeyPair, INTERNAL_TOKEN_HEADER, signInternalToken } from '@partner/auth';
import { newId } from '@partner/http';
import { keyPrincipalFor } from '@partner/testing';
import { createApp } from '../app.js';
import {
  type AppHarness,
  bootstrapPath,
  chat,
  chatPath,
  expectError,
  kinds,
  publishableKey,
  useAppHarness,
  testKey,
} from '../testing/app-harness.js';
import { grantIntegrator, seedRestaurant, usageRows } from '../testing/factories.js';

const h = useAppHarness();

// Every route of the service, as a supertest call with the given headers.
const routes = [
  ['POST', 'chat', (id: string) => chatPath(id)],
  ['POST', 'embed chat', (id: string) => chatPath(id, 'embed')],
  ['GET', 'bootstrap', bootstrapPath],
] as const;
const call = (app: AppHarness['app'], method: 'GET' | 'POST', path: string, headers: Record<string, string>) =>
  method === 'GET' ? request(app).get(path).set(headers) : request(app).post(path).set(headers).send({ message: 'Any desserts?' });

describe.each(routes)('%s %s: only the gateway gets in', (method, _name, path) => {
  it('refuses a request without an internal token with 401 unauthorized, echoing the request id', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const requestId = `req_${randomBytes(8).toString('hex')}`;
    const res = await call(h.app, method, path(restaurant.id), { 'X-Request-Id': requestId });
    expectError(res, 401, 'unauthorized');
    expect(res.body.error.requestId).toBe(requestId);
  });

  it('refuses a token that is not a JWT, one signed by another key, and one meant for another service', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const principal = testKey(owner);
    // A gateway of our own whose public key the app trusts, so that only the audience differs.
    const gateway = generateInternalKeyPair();
    const app = createApp({ ...h.deps, internalPublicKey: gateway.publicKey });
    const token = (privateKey: string, audience: string) => ({
      [INTERNAL_TOKEN_HEADER]: signInternalToken(privateKey, principal, audience),
    });

    expectError(await call(app, method, path(restaurant.id), { [INTERNAL_TOKEN_HEADER]: 'not-a-token' }), 401, 'unauthorized');
    expectError(
      await call(app, method, path(restaurant.id), token(generateInternalKeyPair().privateKey, 'concierge')),
      401,
      'unauthorized',
    );
    expectError(await call(app, method, path(restaurant.id), token(gateway.privateKey, 'catalog')), 401, 'unauthorized');
    expect((await call(app, method, path(restaurant.id), token(gateway.privateKey, 'concierge'))).status).toBe(200);
  });

  it('refuses a principal that is not an API key (an operator) with 401 invalid_api_key', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    expectError(await call(h.app, method, path(restaurant.id), h.caller.headers({ kind: 'operator' })), 401, 'invalid_api_key');
  });
});

describe('reach', () => {
  it("answers another restaurant's id exactly like a missing one: 404 not_found, nothing metered", async () => {
    const mine = await seedRestaurant(h.deps.db);
    const theirs = await seedRestaurant(h.deps.db);
    const principal = keyPrincipalFor(mine.owner);
    for (const route of ['server', 'embed'] as const) {
      const foreign = await chat(h, principal, theirs.restaurant.id, { message: 'hi' }, { route });
      const missing = await chat(h, principal, newId('rst'), { message: 'hi' }, { route });
      expectError(foreign, 404, 'not_found');
      expectError(missing, 404, 'not_found');
      expect(foreign.body.error.message).toBe(missing.body.error.message);
    }
    expect(await usageRows(h.deps.db, theirs.restaurant.id)).toEqual([]);
    expect(h.model.requests).toHaveLength(0);
  });

  it("bootstraps another restaurant's concierge, or a missing one, as not servable, never as an error", async () => {
    const mine = await seedRestaurant(h.deps.db);
    const theirs = await seedRestaurant(h.deps.db);
    for (const id of [theirs.restaurant.id, newId('rst')]) {
      const res = await request(h.app)
        .get(bootstrapPath(id))
        .set(h.caller.headers(publishableKey(mine.owner)));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { enabled: false } });
    }
  });

  it('lets an integrator with an active grant including concierge:chat stream a turn', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const integrator = await grantIntegrator(h.deps.db, restaurant.id, { scopes: ['menu:read', 'concierge:chat'] });
    const { status, events } = await chat(h, testKey(integrator), restaurant.id, { message: 'tiramisu?' });
    expect(status).toBe(200);
    expect(kinds(events).at(-1)).toBe('done');
    const boot = await request(h.app)
      .get(bootstrapPath(restaurant.id))
      .set(h.caller.headers(testKey(integrator)));
    expect(boot.body.data.enabled).toBe(true);
  });

  it('refuses an integrator whose grant lacks concierge:chat: 403 forbidden_scope, and its bootstrap is not servable', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const integrator = await grantIntegrator(h.deps.db, restaurant.id, { scopes: ['menu:read'] });
    expectError(await chat(h, testKey(integrator), restaurant.id, { message: 'hi' }), 403, 'forbidden_scope');
    const boot = await request(h.app)
      .get(bootstrapPath(restaurant.id))
      .set(h.caller.headers(testKey(integrator)));
    expect(boot.status).toBe(200);
    expect(boot.body).toEqual({ data: { enabled: false } });
  });

  it('treats a revoked grant as no reach at all: 404 not_found', async () => {
    const { restaurant } = await seedRestaurant(h.deps.db);
    const integrator = await grantIntegrator(h.deps.db, restaurant.id, { scopes: ['concierge:chat'], status: 'revoked' });
    expectError(await chat(h, testKey(integrator), restaurant.id, { message: 'hi' }), 404, 'not_found');
  });
});
