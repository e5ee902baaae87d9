import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, saveScreenshot } from './browser.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';

// The OpenAPI document against the running platform: every operation it documents is served (by the
// gateway and by the service behind it), and the reference renders in a browser with nothing fetched
// from elsewhere. Every answer here is also checked against the document when the stack stops.

let stack: Stack;
let auth: Record<string, string>;
let document: any;

beforeAll(async () => {
  stack = await startStack();
  ({ auth } = await restaurantWithKey(stack, { scopes: ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'] }));
  document = (await request(stack.gatewayUrl).get('/v1/openapi.json').expect(200)).body;
});
afterAll(() => stack?.stop());

const someId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
/** An id of the right kind for each parameter of a documented path, so only the route is tested. */
const concrete = (template: string) =>
  template
    .replace(/\{path\}$/, `${Math.floor(Date.now() / 1000) + 60}/${'0'.repeat(43)}/${'0'.repeat(64)}/dish.glb`)
    .replace(/\{id\}/, () => {
      if (template.includes('/webhook-endpoints/')) return someId('we');
      if (template.includes('/webhook-deliveries/')) return someId('whd');
      if (template.includes('/items/')) return someId('itm');
      return someId('rst');
    });

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document of this deployment, served without a key', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'http://gateway.test' }]);
    expect(Object.keys(document.paths).length).toBeGreaterThan(15);
  });

  it('documents no route that the platform does not serve', async () => {
    const missing: string[] = [];
    for (const [template, item] of Object.entries<Record<string, { requestBody?: unknown }>>(document.paths)) {
      for (const method of Object.keys(item).filter((key) => ['get', 'head', 'post', 'patch', 'delete'].includes(key))) {
        const path = concrete(template);
        const call = request(stack.gatewayUrl)[method as 'get'](path).set(auth);
        const res = item[method]!.requestBody ? await call.send({ message: 'hello' }) : await call;
        const body = res.body as { error?: { code: string; message: string } };
        // A route that exists answers with its own outcome (found, not found, refused); one that does
        // not is the gateway's or the service's "No route for", or 405.
        if (res.status === 405 || body.error?.message?.startsWith('No route for'))
          missing.push(`${method.toUpperCase()} ${template}: ${res.status}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('/docs', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('renders the reference in Chromium from the gateway alone', { timeout: 90_000 }, async () => {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // Nothing from elsewhere may arrive (the build took out the one logo Redoc fetches), and nothing may fail.
    const foreign: string[] = [];
    const errors: string[] = [];
    const isForeign = (url: string) => !url.startsWith(stack.gatewayUrl) && !url.startsWith('data:') && !url.startsWith('blob:');
    tab.on('requestfinished', (req) => {
      if (isForeign(req.url())) foreign.push(req.url());
    });
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    tab.on('pageerror', (err) => errors.push(err.message));
    await tab.goto(`${stack.gatewayUrl}/docs`, { waitUntil: 'domcontentloaded' });
    // Redoc renders the whole document: the title, and each operation under its own heading.
    await tab
      .getByRole('heading', { name: /Partner API/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await tab.locator('h2', { hasText: 'List or sync items' }).first().waitFor();
    await saveScreenshot(tab, 'api-reference.png');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('links the guides, which the gateway serves as pages that link each other', { timeout: 90_000 }, async () => {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await tab.goto(`${stack.gatewayUrl}/docs`, { waitUntil: 'domcontentloaded' });
    await tab.getByRole('link', { name: 'All guides' }).first().click();
    await tab.getByRole('heading', { name: 'Integration guides' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/docs/guides/');

    await tab.getByRole('link', { name: 'Errors' }).first().click();
    await tab.getByRole('heading', { name: 'Errors', level: 1 }).waitFor();
    expect(await tab.locator('table').count()).toBeGreaterThan(0);
    await saveScreenshot(tab, 'guide-errors.png');

    // A link out of docs/guides in the repository points at the page the gateway serves for it.
    await tab.goto(`${stack.gatewayUrl}/docs/guides/`, { waitUntil: 'domcontentloaded' });
    await tab.getByRole('link', { name: 'packages/sdk/README.md' }).first().click();
    await tab.getByRole('heading', { name: '@partner/sdk', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  });
});
