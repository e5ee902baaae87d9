import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectError, useAppHarness } from '../testing/app-harness.js';

// The harness's webhooks service is down (a closed port). The forwarding itself, against a running
// webhooks service, is e2e's (e2e/src/webhooks.test.ts).

const h = useAppHarness();

describe('webhook routes while the webhooks service is unreachable', () => {
  it.each([
    ['GET', '/console/webhook-deliveries?status=failed'],
    ['POST', '/console/webhook-deliveries/whd_abc123/resend'],
    ['POST', '/console/webhook-endpoints/we_abc123/enable'],
  ] as const)('%s %s answers 503 service_unavailable with Retry-After, at once', async (method, path) => {
    const started = Date.now();
    const res = await (method === 'GET' ? request(h.app).get(path) : request(h.app).post(path)).set(h.admin);
    expect(Date.now() - started).toBeLessThan(3_000);
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('1');
  });
});
