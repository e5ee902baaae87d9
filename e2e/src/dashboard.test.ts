import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, SCREENSHOTS } from './browser.js';
import { fitsWidth, seriousViolations, signInByLink } from './dashboard.js';
import { sampleModelFiles, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// The dashboard in Chromium against the whole stack: an owner signs in by e-mail link and does what
// the spec sends owners to the dashboard for; an integrator asks for access; a second owner sees
// nothing of the first's. Every page is checked with axe-core and at phone width, and timed.

let stack: Stack;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const world = {} as { restaurantId: string; otherRestaurantId: string; integratorId: string; itemId: string };
/** Milliseconds from asking for each page to its heading on screen with its data. */
const timings: Record<string, number> = {};

beforeAll(async () => {
  // The gateway at its public URL: the dashboard's previews load its embed scripts.
  stack = await startStack({
    dashboard: true,
    realPublicUrl: true,
    webhooksEnv: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_DISPATCHER_ENABLED: 'true' },
  });
  browser = await launchBrowser();
  receiver = await startReceiver();
  const restaurant = await stack.console.createRestaurant({ name: 'Chez Dashboard', slug: 'chez-dashboard', currency: 'EUR' });
  await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
  const other = await stack.console.createRestaurant({ name: 'Other Bistro', slug: 'other-bistro', currency: 'EUR' });
  const integrator = await stack.console.createIntegrator({ name: 'POS Co', slug: 'pos-co-dashboard' });
  const section = await stack.console.createSection(restaurant.id, { name: 'Mains' });
  const item = await stack.console.createItem(restaurant.id, { name: 'Burrata', priceCents: 1400, sectionId: section.id });
  const dessert = await stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900, sectionId: section.id });
  await stack.console.uploadModel(dessert.id, await sampleModelFiles());
  Object.assign(world, { restaurantId: restaurant.id, otherRestaurantId: other.id, integratorId: integrator.id, itemId: item.id });
  await stack.console.inviteMember({ kind: 'restaurant', id: restaurant.id }, { email: 'owner@chez.test', role: 'owner' });
  await stack.console.inviteMember({ kind: 'restaurant', id: other.id }, { email: 'owner@other.test', role: 'owner' });
  await stack.console.inviteMember({ kind: 'integrator', id: integrator.id }, { email: 'dev@pos.test', role: 'owner' });
  // The invitations' own links are not used here: each person asks for a link on the sign-in page.
  for (const email of ['owner@chez.test', 'owner@other.test', 'dev@pos.test']) await stack.dashboard!.mailbox.nextMailTo(email);
}, 120_000);

afterAll(async () => {
  writeFileSync(`${SCREENSHOTS}dashboard-timings.json`, `${JSON.stringify(timings, null, 2)}\n`);
  console.log('dashboard pages, ms to interactive:', timings);
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

/** Opens a tab of the owner's pages by its link, times it, checks it, and saves its picture. */
async function visit(tab: Page, linkName: string, heading: string, shot: string) {
  const started = performance.now();
  await tab
    .getByRole('navigation', { name: /sections/ })
    .getByRole('link', { name: linkName, exact: true })
    .click();
  await tab.getByRole('heading', { level: 1, name: heading }).waitFor();
  await expect.poll(() => tab.getByText('Loading…').count()).toBe(0);
  timings[shot] = Math.round(performance.now() - started);
  expect(await seriousViolations(tab), shot).toEqual([]);
  await saveScreenshot(tab, `dashboard-${shot}.png`, { fullPage: true });
}

describe('an owner in Chromium', () => {
  let tab: Page;

  it('signs in by e-mail link and lands on their restaurant', async () => {
    const started = performance.now();
    tab = await signInByLink(browser, stack, 'owner@chez.test');
    await tab.getByRole('heading', { level: 1, name: 'Chez Dashboard' }).waitFor();
    timings['sign-in (ask for a link, receive it, open it) to overview'] = Math.round(performance.now() - started);
    expect(tab.url()).toBe(`${stack.dashboard!.url}/restaurants/${world.restaurantId}`);
    expect(await seriousViolations(tab)).toEqual([]);
    await saveScreenshot(tab, 'dashboard-overview.png', { fullPage: true });
  }, 60_000);

  it('creates a secret key and sees its value once, and the key works', async () => {
    await visit(tab, 'API keys', 'API keys', 'keys');
    await tab.getByRole('button', { name: 'New key' }).click();
    await tab.getByLabel('Name').fill('POS integration');
    await tab.getByRole('button', { name: 'Create key' }).click();
    const value = (await tab.getByTestId('shown-once').textContent())!;
    expect(value).toMatch(/^svc_sk_test_[0-9A-Za-z]{38}$/);
    await saveScreenshot(tab, 'dashboard-key-shown-once.png');
    // A browser that refuses the clipboard: the button says so rather than "Copied" (the value is shown once).
    await tab.evaluate('navigator.clipboard.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"))');
    await tab.getByRole('button', { name: 'Copy' }).click();
    await tab.getByRole('button', { name: /Copy failed/ }).waitFor();
    const me = await fetch(`${stack.gatewayUrl}/v1/partner/me`, { headers: { Authorization: `Bearer ${value}` } });
    expect(me.status).toBe(200);
    await tab.getByRole('button', { name: 'Done' }).click();
    await tab.reload();
    await tab.getByText('POS integration').waitFor();
    expect(await tab.content()).not.toContain(value);
    await expect.poll(() => tab.getByText(`svc_sk_test_…${value.slice(-4)}`).count()).toBe(1);
    // Used once at the gateway: the list says when.
    const row = tab.getByRole('row', { name: /POS integration/ });
    await expect
      .poll(async () => {
        await tab.reload();
        return row.getByRole('cell').nth(4).textContent();
      })
      .not.toBe('Never');

    // A key's expiry is shown; past it, the key is refused like an unknown one and listed as expired.
    const expiring = (name: string, inMs: number) =>
      stack.console.createKey({
        restaurantId: world.restaurantId,
        type: 'secret',
        environment: 'test',
        name,
        expiresAt: new Date(Date.now() + inMs).toISOString(),
      });
    await expiring('Quarterly', 90 * 86_400_000);
    await expiring('Short-lived', 1_000);
    await expect
      .poll(async () => (await tab.reload(), await tab.getByRole('row', { name: /Short-lived/ }).textContent()), { timeout: 15_000 })
      .toContain('expired');
    expect(await tab.getByRole('row', { name: /Quarterly/ }).textContent()).toMatch(/active.*expires/);
  }, 60_000);

  it('creates a webhook endpoint, sends a test event, sees a delivery and resends it', async () => {
    await visit(tab, 'Webhooks', 'Webhooks', 'webhooks');
    await tab.getByRole('button', { name: 'New endpoint' }).click();
    await tab.getByLabel('URL').fill(receiver.url);
    await tab.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await tab.getByTestId('shown-once').textContent()).toMatch(/^whsec_/);
    await tab.getByRole('button', { name: 'Done' }).click();

    // Narrowed to the events it wants.
    await tab.getByRole('button', { name: `Edit ${receiver.url}` }).click();
    await tab.getByRole('checkbox', { name: 'item.updated' }).check();
    await tab.getByRole('button', { name: 'Save endpoint' }).click();
    await tab.getByRole('region', { name: 'Endpoints' }).getByText('item.updated', { exact: true }).waitFor();

    await tab.getByRole('button', { name: 'Send test event' }).click();
    await tab.getByText(/Test event delivered: your endpoint answered 200/).waitFor();
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toContain('ping');

    // A change of the menu, made in the dashboard, is delivered...
    await visit(tab, 'Menu', 'Menu', 'menu');
    await tab.getByLabel('Status of Burrata').selectOption('draft');
    await expect
      .poll(() => receiver.received.filter((r) => JSON.parse(r.body).type === 'item.updated').length, { timeout: 15_000 })
      .toBe(1);
    // ...listed with its answer, and sent again on request.
    await visit(tab, 'Webhooks', 'Webhooks', 'webhooks');
    const resend = tab.getByRole('button', { name: /^Resend item\.updated/ });
    await expect
      .poll(async () => (await resend.count()) > 0 || (await tab.getByRole('button', { name: 'Refresh' }).click(), false), {
        timeout: 15_000,
      })
      .toBe(true);
    // Its payload as the receiver got it, and its answer.
    await tab
      .getByRole('button', { name: /^Details of item\.updated/ })
      .first()
      .click();
    await expect.poll(async () => JSON.parse((await tab.getByTestId('delivery-payload').textContent())!).data.itemName).toBe('Burrata');
    await tab
      .getByRole('region', { name: /^Delivery whd_/ })
      .getByText('200 in')
      .waitFor();
    await saveScreenshot(tab, 'dashboard-delivery-detail.png', { fullPage: true });
    await resend.first().click();
    await tab.getByText('item.updated queued again').waitFor();
    await expect
      .poll(() => receiver.received.filter((r) => JSON.parse(r.body).type === 'item.updated').length, { timeout: 15_000 })
      .toBe(2);
    await saveScreenshot(tab, 'dashboard-webhooks-deliveries.png', { fullPage: true });
  }, 90_000);

  it('re-enables an endpoint disabled by its receiver and resends what it missed; pages through older deliveries', async () => {
    let gone = true;
    const flaky = await startReceiver(() => (gone ? 410 : 200));
    try {
      await visit(tab, 'Webhooks', 'Webhooks', 'webhooks');
      await tab.getByRole('button', { name: 'New endpoint' }).click();
      await tab.getByLabel('URL').fill(flaky.url);
      await tab.getByRole('checkbox', { name: 'item.updated' }).check();
      await tab.getByRole('button', { name: 'Add endpoint' }).click();
      await tab.getByRole('button', { name: 'Done' }).click();

      // 410 Gone disables the endpoint at once; a change while it is disabled is kept as skipped.
      await stack.console.updateItem(world.itemId, { priceCents: 1450 });
      await expect.poll(() => flaky.received.length, { timeout: 15_000 }).toBe(1);
      const endpointRow = tab.getByRole('listitem').filter({ hasText: flaky.url });
      await expect.poll(async () => (await tab.reload(), await endpointRow.textContent()), { timeout: 15_000 }).toContain('disabled');
      await stack.console.updateItem(world.itemId, { priceCents: 1500 });
      // Fanned out as skipped (the endpoint is off) before the recovery looks for it.
      const deliveries = tab.getByRole('region', { name: 'Deliveries' });
      const skippedShown = async () => {
        await tab.reload();
        await deliveries.first().waitFor(); // the log, loaded
        return deliveries.getByText('skipped', { exact: true }).count();
      };
      await expect.poll(skippedShown, { timeout: 15_000 }).toBeGreaterThan(0);

      gone = false;
      await endpointRow.getByRole('button', { name: 'Re-enable…' }).click();
      await tab.getByRole('button', { name: 'Re-enable and resend what it missed' }).click();
      await tab.getByText(`${flaky.url} is active again; 2 missed events queued again.`).waitFor();
      await expect.poll(() => flaky.received.length, { timeout: 15_000 }).toBe(3);

      // A long log shows its newest page, and older ones on request.
      for (let price = 1510; price < 1560; price += 1) await stack.console.updateItem(world.itemId, { priceCents: price });
      await expect.poll(() => flaky.received.length, { timeout: 30_000 }).toBe(53);
      await tab.reload();
      const rows = deliveries.getByRole('row');
      await expect.poll(() => rows.count()).toBe(51); // the header and a page of 50
      await tab.getByRole('button', { name: 'Show older deliveries' }).click();
      await expect.poll(() => rows.count()).toBeGreaterThan(51);
    } finally {
      await flaky.close();
    }
  }, 120_000);

  it("approves an integrator's connect link on a consent screen that names it and its scopes", async () => {
    const integrator = await signInByLink(browser, stack, 'dev@pos.test');
    await visit(integrator, 'Connect links', 'Connect links', 'integrator-connect-links');
    await integrator.getByRole('button', { name: 'New connect link' }).click();
    const link = (await integrator.getByTestId('connect-link').textContent())!;
    expect(link).toMatch(new RegExp(`^${stack.dashboard!.url}/connect/`));

    await tab.goto(link);
    await tab.getByRole('heading', { level: 1, name: 'Connect POS Co' }).waitFor();
    await tab.getByText('read your menu').waitFor();
    expect(await seriousViolations(tab)).toEqual([]);
    await saveScreenshot(tab, 'dashboard-consent.png', { fullPage: true });
    await tab.getByRole('button', { name: 'Approve' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    await tab.getByRole('region', { name: 'Integrators with access' }).getByText('POS Co').waitFor();

    await integrator.reload();
    await visit(integrator, 'Restaurants', 'Restaurants', 'integrator-restaurants');
    await integrator.getByRole('region', { name: 'Restaurants that granted access' }).getByText('Chez Dashboard').waitFor();
    await integrator.context().close();
  }, 90_000);

  it('switches the concierge off and on', async () => {
    await visit(tab, 'Concierge', 'Concierge', 'concierge');
    const state = tab.getByTestId('concierge-state');
    const before = await state.textContent();
    const flip = async (to: 'on' | 'off') => {
      await tab.getByRole('button', { name: `Switch the concierge ${to}` }).click();
      await expect.poll(() => state.textContent()).toBe(to);
      expect((await stack.console.getRestaurant(world.restaurantId)).conciergeEnabled).toBe(to === 'on');
    };
    // What the owner is typing survives the switch, and is not said to be saved.
    const notes = tab.getByLabel('House notes');
    await notes.fill('Typed, not saved yet');
    if (before === 'on') await flip('off');
    await flip('on');
    await flip('off');
    await flip('on');
    expect(await notes.inputValue()).toBe('Typed, not saved yet');
    expect(await tab.getByText('Saved.').count()).toBe(0);
    expect((await stack.console.getRestaurant(world.restaurantId)).houseNotes).not.toBe('Typed, not saved yet');
  }, 60_000);

  it("previews a dish in 3D with the project's own viewer, and tries the concierge widget, both live in test mode", async () => {
    await visit(tab, 'Menu', 'Menu', 'menu');
    await tab.getByRole('button', { name: 'Preview Tiramisu in 3D' }).click();
    const viewer = tab.getByRole('region', { name: '3D preview of Tiramisu' }).locator('service-viewer');
    // The viewer's own shadow DOM, from the API with the dashboard's preview key: the dish's thumbnail,
    // marked test mode, then the 3D view on request.
    await viewer.getByRole('img', { name: 'Tiramisu' }).waitFor({ timeout: 20_000 });
    await viewer.getByText('TEST MODE').waitFor();
    await viewer.getByRole('button', { name: 'View in 3D' }).click();
    await expect
      .poll(() => viewer.evaluate((element) => Boolean(element.shadowRoot?.querySelector('model-viewer'))), { timeout: 20_000 })
      .toBe(true);
    await saveScreenshot(tab, 'dashboard-menu-preview.png', { fullPage: true });

    await visit(tab, 'Concierge', 'Concierge', 'concierge');
    // The widget's launcher, then a question answered from the sandbox (test mode, no model here).
    const widget = tab.locator('service-concierge');
    await widget.locator('.launcher').click({ timeout: 20_000 });
    expect(await widget.locator('.badge').textContent()).toBe('TEST MODE');
    await widget.locator('input').fill('Anything sweet?');
    await widget.locator('form button').click();
    await expect.poll(() => widget.locator('.card').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await saveScreenshot(tab, 'dashboard-concierge-try-it.png');
    await visit(tab, 'Embeds', 'Embeds', 'embeds');
    await tab.getByText('Tiramisu, live, as your guests will see it.').waitFor();
  }, 90_000);

  it('sets a password, then signs in with it in another browser', async () => {
    await tab.getByRole('link', { name: 'owner@chez.test' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect(await seriousViolations(tab)).toEqual([]);
    await tab.getByLabel('New password').fill('pickled radish tuesday');
    await tab.getByRole('button', { name: 'Save password' }).click();
    await tab.getByText('Saved.').waitFor();
    await saveScreenshot(tab, 'dashboard-account.png');

    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto(`${stack.dashboard!.url}/restaurants/${world.restaurantId}/keys`);
    await other.getByLabel('E-mail address').fill('owner@chez.test');
    await other.getByLabel('Password').fill('pickled radish tuesday');
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Back where the sign-in page was asked for.
    await other.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await context.close();
    await tab.goBack();
  }, 60_000);

  it('says so on the overview when the webhook endpoints could not be read, rather than that all is well', async () => {
    await tab.route('**/webhook-endpoints?limit=100', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":{"code":"service_unavailable","message":"x","requestId":"r"}}',
      }),
    );
    try {
      await visit(tab, 'Overview', 'Chez Dashboard', 'overview-webhooks-unknown');
      await tab.getByText('The state of your webhook endpoints could not be checked just now.').waitFor();
    } finally {
      await tab.unroute('**/webhook-endpoints?limit=100');
    }
  }, 60_000);

  it('says so when the embeds page cannot read its configuration, and reads it again on the next visit', async () => {
    await tab.route('**/app-config.json', (route) => route.fulfill({ status: 503, body: '' }));
    try {
      await tab.reload();
      await visit(tab, 'Embeds', 'Embeds', 'embeds-config-unreadable');
      await tab.getByText(/configuration could not be read \(503\)/).waitFor();
    } finally {
      await tab.unroute('**/app-config.json');
    }
    await visit(tab, 'Team', 'Team', 'team');
    await visit(tab, 'Embeds', 'Embeds', 'embeds');
    await tab.getByRole('heading', { name: '3D dish viewer' }).waitFor();
  }, 60_000);

  it('has every other page accessible too', async () => {
    await visit(tab, 'Integrations', 'Integrations', 'integrations');
    await visit(tab, 'Embeds', 'Embeds', 'embeds');
    await visit(tab, 'Team', 'Team', 'team');
    await visit(tab, 'Overview', 'Chez Dashboard', 'overview');
  }, 60_000);
});

describe('a second owner', () => {
  it("sees nothing of the first owner's restaurant, in the pages or through the API", async () => {
    const tab = await signInByLink(browser, stack, 'owner@other.test');
    await tab.getByRole('heading', { level: 1, name: 'Other Bistro' }).waitFor();
    await tab.goto(`${stack.dashboard!.url}/restaurants/${world.restaurantId}/keys`);
    await tab.getByText('There is nothing here for you').waitFor();
    const answers = await tab.evaluate(async (ids) => {
      const paths = [
        `/console/restaurants/${ids.restaurantId}`,
        `/console/keys?restaurantId=${ids.restaurantId}`,
        `/console/restaurants/${ids.restaurantId}/webhook-deliveries`,
      ];
      return Promise.all(paths.map(async (path) => (await fetch(path)).status));
    }, world);
    expect(answers).toEqual([404, 404, 404]);
    const listed = await tab.evaluate(async () =>
      ((await (await fetch('/console/restaurants')).json()) as { data: Array<{ name: string }> }).data.map((r) => r.name),
    );
    expect(listed).toEqual(['Other Bistro']);
    await tab.context().close();
  }, 60_000);
});

describe('signing out', () => {
  it('says so when the sign-out never reached the server, leaving the session signed in, and signs out once it does', async () => {
    const tab = await signInByLink(browser, stack, 'owner@other.test');
    await tab.getByRole('heading', { level: 1, name: 'Other Bistro' }).waitFor();
    // The connection drops on the way to console.
    await tab.route('**/console/session', (route) => route.abort('connectionreset'));
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await tab.getByRole('alert').getByText('could not be reached').waitFor();
    // Still the signed-in page, not the sign-in form as if it had worked.
    expect(new URL(tab.url()).pathname).not.toBe('/sign-in');
    expect(await tab.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await tab.unroute('**/console/session');
    // The session was never ended: a reload is still signed in, as the page had said.
    await tab.reload();
    await tab.getByRole('heading', { level: 1, name: 'Other Bistro' }).waitFor();
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await tab.getByLabel('E-mail address').waitFor();
    await tab.context().close();
  }, 60_000);
});

describe('the dashboard as a door to console', () => {
  it('forwards no Authorization header: the admin token works on console directly, never through the public dashboard', async () => {
    const headers = { Authorization: `Bearer ${stack.adminToken}` };
    expect((await fetch(`${stack.consoleUrl}/console/restaurants`, { headers })).status).toBe(200);
    const through = await fetch(`${stack.dashboard!.url}/console/restaurants`, { headers });
    expect(through.status).toBe(401);
    expect((await fetch(`${stack.dashboard!.url}/console/session`, { headers })).status).toBe(200);
  });
});

describe('at phone width', () => {
  it('fits every page in 390 px and keeps them accessible', async () => {
    const tab = await signInByLink(browser, stack, 'owner@chez.test', { width: 390, height: 844 });
    await tab.getByRole('heading', { level: 1, name: 'Chez Dashboard' }).waitFor();
    for (const [link, heading] of [
      ['Overview', 'Chez Dashboard'],
      ['Menu', 'Menu'],
      ['API keys', 'API keys'],
      ['Webhooks', 'Webhooks'],
      ['Integrations', 'Integrations'],
      ['Concierge', 'Concierge'],
      ['Embeds', 'Embeds'],
      ['Team', 'Team'],
    ] as const) {
      await visit(tab, link, heading, `phone-${link.toLowerCase().replace(/\s+/g, '-')}`);
      expect(await fitsWidth(tab), link).toBe(true);
    }
    await tab.context().close();
  }, 120_000);

  it('signs in at phone width too', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const tab = await context.newPage();
    await tab.goto(`${stack.dashboard!.url}/sign-in`);
    await tab.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await fitsWidth(tab)).toBe(true);
    expect(await seriousViolations(tab)).toEqual([]);
    await saveScreenshot(tab, 'dashboard-phone-sign-in.png');
    await context.close();
  });
});
