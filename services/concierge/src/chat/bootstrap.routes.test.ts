import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Principal } from '@partner/auth';
import { ZConciergeBootstrap } from '@partner/contracts';
import { createDb } from '@partner/db';
import { freePort, keyPrincipalFor } from '@partner/testing';
import { createApp } from '../app.js';
import { bootstrapPath, publishableKey, useAppHarness } from '../testing/app-harness.js';
import { seedRestaurant, setKillSwitch, usageRows } from '../testing/factories.js';

const h = useAppHarness();

const bootstrap = (principal: Principal, restaurantId: string) =>
  request(h.app).get(bootstrapPath(restaurantId)).set(h.caller.headers(principal));

/** Every answer of the route, servable or not: 200, cached privately for a minute. */
function expectBootstrap(res: request.Response) {
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('private, max-age=60');
  return ZConciergeBootstrap.parse(res.body.data);
}

describe('GET the concierge bootstrap', () => {
  it("gives the widget what it needs for a servable concierge, with the restaurant's defaults", async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const res = await bootstrap(publishableKey(owner), restaurant.id);
    expect(expectBootstrap(res)).toEqual({
      enabled: true,
      displayName: 'Trattoria Prova',
      welcomeMessage: 'Hi! Ask me anything about our menu.',
      disclosure: expect.stringMatching(/AI assistant.*Trattoria Prova/),
      currency: 'EUR',
      publicMenuUrl: null,
      testMode: true,
    });
  });

  it("uses the owner's display name, welcome message and menu page, and reports live mode for live keys", async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db, {
      concierge_display_name: 'Nonna',
      concierge_welcome_message: 'Ciao! Hungry?',
      public_menu_url: 'https://trattoria.example/menu',
      currency: 'CHF',
    });
    const res = await bootstrap(publishableKey(owner, 'live'), restaurant.id);
    expect(expectBootstrap(res)).toMatchObject({
      enabled: true,
      displayName: 'Nonna',
      welcomeMessage: 'Ciao! Hungry?',
      currency: 'CHF',
      publicMenuUrl: 'https://trattoria.example/menu',
      testMode: false,
    });
  });

  it('answers a secret key with concierge:chat too, and meters nothing', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db, { concierge_allowance: 0 });
    const res = await bootstrap(keyPrincipalFor(owner, { scopes: ['concierge:chat'] }), restaurant.id);
    expect(expectBootstrap(res).enabled).toBe(true);
    expect(await usageRows(h.deps.db, restaurant.id)).toEqual([]);
  });

  it.each([
    ['the subscription lapsed', { subscription_status: 'lapsed' as const }],
    ['the Partner API add-on is off', { partner_api_addon: false }],
    ['the concierge add-on is off', { concierge_addon: false }],
    ['the owner switched the assistant off', { concierge_enabled: false }],
  ])('when %s: exactly { enabled: false }, never an error', async (_name, state) => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db, state);
    for (const principal of [publishableKey(owner), publishableKey(owner, 'live')]) {
      const res = await bootstrap(principal, restaurant.id);
      expectBootstrap(res);
      expect(res.body).toEqual({ data: { enabled: false } });
    }
  });

  it('when the platform kill switch is on: { enabled: false }, and servable again once it is off', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const principal = publishableKey(owner);
    await setKillSwitch(h.deps.db, true);
    try {
      const res = await bootstrap(principal, restaurant.id);
      expectBootstrap(res);
      expect(res.body).toEqual({ data: { enabled: false } });
    } finally {
      await setKillSwitch(h.deps.db, false);
    }
    expect((await bootstrap(principal, restaurant.id)).body.data.enabled).toBe(true);
  });

  it('answers a fault of Postgres with 503, which the browser does not keep', async () => {
    const { restaurant, owner } = await seedRestaurant(h.deps.db);
    const gone = createDb({
      url: `postgres://postgres@127.0.0.1:${await freePort()}/gone`,
      deadlines: { connectTimeoutMs: 500, statementTimeoutMs: 1000, idleInTransactionTimeoutMs: 1000 },
    });
    try {
      const app = createApp({ ...h.deps, db: gone });
      const res = await request(app)
        .get(bootstrapPath(restaurant.id))
        .set(h.caller.headers(publishableKey(owner)));
      expect(res.status).toBe(503);
      expect(res.headers['cache-control'] ?? '').not.toMatch(/max-age/);
    } finally {
      await gone.destroy();
    }
  });
});
