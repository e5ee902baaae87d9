import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZKeyMetadata } from '@partner/contracts';
import { expectError, type GatewayHarness, type Owner, startGatewayHarness } from '../testing/app-harness.js';

let harness: GatewayHarness;
beforeAll(async () => {
  harness = await startGatewayHarness();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.upstream.take();
});

const me = (auth: Record<string, string>) => request(harness.app).get('/v1/partner/me').set(auth);
const ownerRef = ({ id, name, slug }: Owner) => ({ id, name, slug });

describe('GET /v1/partner/me', () => {
  it('describes a restaurant’s live secret key, answered by the gateway itself', async () => {
    const restaurant = await harness.restaurant();
    const key = await harness.issueKey(restaurant, { scopes: ['menu:read', 'assets:read'], rateLimitPerMin: 250 });
    const res = await me(key.auth);
    expect(res.status).toBe(200);
    expect(ZKeyMetadata.parse(res.body.data)).toEqual({
      keyId: key.row.id,
      type: 'SECRET',
      environment: 'LIVE',
      name: key.row.name,
      scopes: ['menu:read', 'assets:read'],
      rateLimitPerMin: 250,
      restaurant: ownerRef(restaurant),
      integratorOrg: null,
      docsUrl: harness.config.docsUrl,
    });
    expect(res.headers['x-ratelimit-limit']).toBe('250');
    expect(harness.upstream.take()).toEqual([]);
  });

  it('describes an integrator’s test key, with the rate test keys are held to', async () => {
    const org = await harness.integrator();
    const key = await harness.issueKey(org, { environment: 'test', scopes: [], rateLimitPerMin: 1_000 });
    const res = await me(key.auth);
    expect(res.status).toBe(200);
    expect(ZKeyMetadata.parse(res.body.data)).toMatchObject({
      keyId: key.row.id,
      type: 'SECRET',
      environment: 'TEST',
      scopes: [],
      rateLimitPerMin: 60,
      restaurant: null,
      integratorOrg: ownerRef(org),
    });
  });

  it.each(['restaurant', 'integrator'] as const)(
    'answers 403 account_suspended to a key of a suspended %s, counting the request',
    async (kind) => {
      const owner = await harness[kind]({ suspended: true });
      const key = await harness.issueKey(owner, { rateLimitPerMin: 10 });
      const res = await me(key.auth);
      expectError(res, 403, 'account_suspended');
      expect(res.headers['x-ratelimit-remaining']).toBe('9');
    },
  );

  it('learns of a suspension and its lifting over pub/sub while it holds the key in cache', async () => {
    const restaurant = await harness.restaurant();
    const key = await harness.issueKey(restaurant);
    const status = async () => (await me(key.auth)).status;
    expect(await status()).toBe(200);
    await harness.setSuspended(restaurant, true);
    await expect.poll(status, { timeout: 2_000, interval: 20 }).toBe(403);
    expectError(await me(key.auth), 403, 'account_suspended');
    await harness.setSuspended(restaurant, false);
    await expect.poll(status, { timeout: 2_000, interval: 20 }).toBe(200);
  });
});
