import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@partner/http';
import { downService, expectError } from '@partner/testing';
import { createApp } from './app.js';

// The dashboard's server at its own door: the web app's files and headers, and /console/* forwarded.
// Forwarding to a live console (sessions, the admin token refused) is walked in e2e/src/dashboard.test.ts.

const webRoot = mkdtempSync(join(tmpdir(), 'dashboard-web-'));
mkdirSync(join(webRoot, 'assets'));
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Dashboard</title><div id="app"></div>');
writeFileSync(join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

let consoleDown: Awaited<ReturnType<typeof downService>>;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  consoleDown = await downService();
  app = createApp({
    webRoot,
    consoleUrl: `http://127.0.0.1:${consoleDown.port}`,
    publicBaseUrl: 'https://api.example.com',
    consoleTimeoutMs: 2_000,
    logger: silentLogger(),
  });
});
afterAll(() => consoleDown.close());

describe('the web app', () => {
  it.each(['/', '/sign-in', '/restaurants/rst_abc/keys', '/connect/cl_token'])('answers %s with the one page, never cached, under a strict CSP', async (path) => {
    const res = await request(app).get(path);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div id="app">');
    expect(res.get('Cache-Control')).toBe('no-cache');
    const csp = res.get('Content-Security-Policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval' https://api.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.get('X-Frame-Options')).toBe('DENY');
    expect(res.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.get('X-Request-Id')).toMatch(/^req_/);
  });

  it('caches hashed assets for good, and a missing one is a 404, not the page', async () => {
    const asset = await request(app).get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect((await request(app).get('/assets/index-gone.js')).status).toBe(404);
    expect((await request(app).get('/favicon.svg')).status).toBe(200);
  });

  it('tells the app where the embed scripts are served', async () => {
    expect((await request(app).get('/app-config.json')).body).toEqual({ publicBaseUrl: 'https://api.example.com' });
  });

  it('refuses to start without a built app', () => {
    expect(() => createApp({ webRoot: tmpdir(), consoleUrl: 'http://127.0.0.1:1', publicBaseUrl: 'http://x', consoleTimeoutMs: 1, logger: silentLogger() })).toThrow(
      /no built web app/,
    );
  });
});

describe('/console/*', () => {
  it('answers 503 with Retry-After in the envelope when console does not answer', async () => {
    const res = await request(app).get('/console/session');
    expectError(res, 503, 'service_unavailable');
    expect(res.get('Retry-After')).toBe('2');
    expect(res.body.error.requestId).toBe(res.get('X-Request-Id'));
  });
});
