import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

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
