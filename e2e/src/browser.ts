import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loaded, watchProblems } from './page-watch.js';
import { startStack, type Stack } from './stack.js';

export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

/**
 * Saves `tab` as screenshots/<name>. Headless Chromium on a loaded machine now and then answers a
 * capture with "Unable to capture screenshot" (no frame composited yet): the picture is the test's
 * record, not its assertion, so it is taken again once after a moment.
 */
export async function saveScreenshot(tab: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const take = () => tab.screenshot({ path: `${SCREENSHOTS}${name}`, ...options });
  await take().catch(async (err: unknown) => {
    if (!String(err).includes('Unable to capture screenshot')) throw err;
    await new Promise((resolve) => setTimeout(resolve, 250));
    await take();
  });
}

/** Debian's Chromium, headless, kept off the network it has no business reaching. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A restaurant's menu page (the gateway's /menu/{restaurantId}) in a fresh browser context of `viewport`,
 * watched for problems from the start (page-watch.ts), once its `posters` dish pictures are all there
 * and loaded, each within `timeout`, and, with `launcher`, the concierge's launcher is up.
 */
export async function openMenuPage(
  browser: Browser,
  gatewayUrl: string,
  restaurantId: string,
  options: { viewport: { width: number; height: number }; posters: number; timeout: number; launcher?: boolean },
) {
  const context = await browser.newContext({ viewport: options.viewport });
  const tab = await context.newPage();
  const problems = watchProblems(tab);
  await tab.goto(`${gatewayUrl}/menu/${restaurantId}`);
  const posters = tab.locator('service-viewer img.poster');
  await expect.poll(() => posters.count(), { timeout: options.timeout }).toBe(options.posters);
  await expect.poll(() => posters.evaluateAll(loaded), { timeout: options.timeout }).toBe(true);
  if (options.launcher) await tab.locator('service-concierge .launcher').waitFor();
  return { tab, posters, problems, close: () => context.close() };
}

/** A third-party page host on loopback: each path answers the HTML the test gives it. */
export async function startPageHost(pages: Record<string, string>) {
  const server = createServer((req, res) => {
    const html = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (!html) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, pages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * What every embed browser test needs, set up once per file: the stack, a browser, a third-party page
 * host, pages that load one embed script from the gateway, and publishable keys allowing that host.
 */
type StackOptions = Parameters<typeof startStack>[0];

export function useEmbedHarness(options: { script: 'v1.js' | 'concierge.v1.js'; stack?: StackOptions | (() => Promise<StackOptions>) }) {
  let stack: Stack;
  let browser: Browser;
  let host: Awaited<ReturnType<typeof startPageHost>>;
  beforeAll(async () => {
    stack = await startStack(typeof options.stack === 'function' ? await options.stack() : options.stack);
    browser = await launchBrowser();
    host = await startPageHost({});
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await stack?.stop();
  });
  return {
    get stack() {
      return stack;
    },
    get browser() {
      return browser;
    },
    get host() {
      return host;
    },
    /** A page with `body`, then the embed script from the gateway. */
    page: (body: string, scriptAttributes = '') =>
      `<!doctype html><html><head><meta charset="utf-8"><title>Bistro</title></head><body style="margin:0">${body}` +
      `<script src="${stack.gatewayUrl}/embed/${options.script}"${scriptAttributes}></script></body></html>`,
    /**
     * Serves `html` at `path` on the page host and opens it in a fresh browser context; `prepare` runs
     * on the tab before the page loads (to install a clock the test moves, say).
     */
    async open(
      path: string,
      html: string,
      userAgent?: string,
      prepare?: (tab: Page) => Promise<void>,
    ): Promise<{ tab: Page; requests: string[] }> {
      host.pages[path] = html;
      const context = await browser.newContext(userAgent ? { userAgent } : {});
      const tab = await context.newPage();
      const requests: string[] = [];
      tab.on('request', (req) => requests.push(req.url()));
      await prepare?.(tab);
      await tab.goto(`${host.origin}${path}`);
      return { tab, requests };
    },
    /** A publishable key of the restaurant that the page host's origin may use. */
    async publishableKey(restaurantId: string, environment: 'live' | 'test' = 'test'): Promise<string> {
      const key = await stack.console.createKey({
        restaurantId,
        type: 'publishable',
        environment,
        name: 'web',
        allowedOrigins: [host.origin],
      });
      return key.value;
    },
  };
}
