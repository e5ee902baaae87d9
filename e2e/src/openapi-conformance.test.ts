import { describe, expect, it } from 'vitest';
import { DocumentValidator, type Exchange } from './openapi-conformance.js';

// The checker that holds every e2e answer to the document must itself catch what does not conform.

const validator = new DocumentValidator();

const me = {
  keyId: 'key_abc123',
  type: 'SECRET',
  environment: 'LIVE',
  name: 'POS sync',
  scopes: ['menu:read'],
  rateLimitPerMin: 100,
  restaurant: { id: 'rst_abc', name: 'Trattoria', slug: 'trattoria' },
  integratorOrg: null,
  docsUrl: 'http://localhost:8080/docs',
};
const headers = {
  'x-request-id': 'req_1',
  'x-service-environment': 'live',
  'x-ratelimit-limit': '100',
  'x-ratelimit-remaining': '99',
  'x-ratelimit-reset': '42',
};
const answer = (overrides: Partial<Exchange> & { json?: unknown }): Exchange => ({
  method: 'GET',
  path: '/v1/partner/me',
  status: 200,
  contentType: 'application/json; charset=utf-8',
  headers,
  body: Buffer.from(JSON.stringify(overrides.json ?? { data: me })),
  ...overrides,
});

describe('the conformance check', () => {
  it('passes an answer as documented, and one with a field added later', () => {
    expect(validator.check(answer({}))).toBeNull();
    expect(validator.check(answer({ json: { data: { ...me, newField: 1 } } }))).toBeNull();
  });

  it('refuses a body that breaks its schema', () => {
    expect(validator.check(answer({ json: { data: { ...me, scopes: 'menu:read' } } }))).toMatch(/GET \/v1\/partner\/me 200: .*scopes/);
  });

  it('refuses a status the operation does not list, and an answer without a required header', () => {
    expect(validator.check(answer({ status: 418 }))).toMatch(/answered 418, which the document does not list/);
    const { 'x-ratelimit-limit': _dropped, ...without } = headers;
    expect(validator.check(answer({ headers: without }))).toMatch(/lacks X-RateLimit-Limit/);
  });

  it('refuses an error code the route does not document, and one unknown to the platform off any route', () => {
    const error = (code: string) => ({ error: { code, message: 'm', requestId: 'req_1' } });
    expect(validator.check(answer({ status: 404, json: error('no_such_code') }))).toMatch(/404/);
    expect(validator.check(answer({ path: '/v1/partner/nothing', status: 404, json: error('not_found') }))).toBeNull();
    expect(validator.check(answer({ path: '/v1/partner/nothing', status: 404, json: error('made_up') }))).toMatch(/no such operation/);
  });

  it('checks each event of a stream', () => {
    const stream = (events: string) =>
      answer({
        method: 'POST',
        path: '/v1/partner/restaurants/rst_abc/concierge/chat',
        contentType: 'text/event-stream',
        body: Buffer.from(events),
      });
    expect(validator.check(stream('event: delta\ndata: {"text":"Hi"}\n\n'))).toBeNull();
    expect(validator.check(stream('event: delta\ndata: {"words":"Hi"}\n\n'))).toMatch(/stream: delta/);
    expect(validator.check(stream('event: delta\ndata: not json\n\n'))).toMatch(/not JSON/);
  });
});
