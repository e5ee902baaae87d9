import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack.js';

// Every service's /readyz as its server.ts wires it, each on its real configuration: what it checks,
// and that a probe needs no credentials while the service's routes still do.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

const readyz = async (baseUrl: string) => {
  const res = await fetch(`${baseUrl}/readyz`);
  return { status: res.status, body: await res.json() };
};

describe('GET /readyz', () => {
  it('is ready on every service, naming what each checks', async () => {
    const ready = (...names: string[]) => ({
      status: 200,
      body: { status: 'ready', checks: Object.fromEntries(names.map((name) => [name, 'ok'])) },
    });
    expect(await readyz(stack.gatewayUrl)).toEqual(ready('postgres', 'redis', 'catalog', 'webhooks', 'concierge'));
    expect(await readyz(stack.serviceUrls.catalog)).toEqual(ready('postgres', 'redis', 'storage'));
    expect(await readyz(stack.serviceUrls.webhooks)).toEqual(ready('postgres', 'redis'));
    expect(await readyz(stack.serviceUrls.concierge)).toEqual(ready('postgres', 'redis'));
    expect(await readyz(stack.consoleUrl)).toEqual(ready('postgres', 'redis', 'storage'));
  });

  it('leaves /healthz a check of the process alone, and every other route behind its guard', async () => {
    for (const url of [stack.serviceUrls.catalog, stack.consoleUrl]) {
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/readyz/`)).status).toBe(401);
      expect((await fetch(`${url}/readyz`, { method: 'POST' })).status).toBe(401);
    }
  });
});
