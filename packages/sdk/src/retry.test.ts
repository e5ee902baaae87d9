import { describe, expect, it } from 'vitest';
import { isApiError, PartnerApiError } from './errors.js';
import { type Clock, parseRetryAfter, planRetry } from './retry.js';
import { apiError, fakeClock, json, scriptedFetch } from './testing/fake-fetch.js';
import { Transport } from './transport.js';

const NOW = Date.UTC(2026, 0, 1);

describe('planRetry', () => {
  const plan = (input: Partial<Parameters<typeof planRetry>[0]>) =>
    planRetry({ retry: 1, status: 429, retryAfterMs: null, elapsedMs: 0, random: () => 0, ...input });

  it('waits Retry-After, never less, plus up to the jitter', () => {
    expect(plan({ retryAfterMs: 2000 })).toBe(2000);
    expect(plan({ retryAfterMs: 2000, random: () => 0.999 })).toBe(2500);
    expect(plan({ retryAfterMs: 2000, random: () => 0.5, options: { jitterMs: 100 } })).toBe(2050);
  });

  it('backs off exponentially without Retry-After, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((retry) => plan({ retry, options: { maxRetries: 10 } }))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('keeps the default of an option given as undefined (a setting read from an unset variable)', () => {
    const unset = undefined as unknown as number;
    expect(plan({ retry: 2, options: { baseDelayMs: unset, maxRetries: unset, jitterMs: unset } })).toBe(1000);
    expect(plan({ retry: 4, options: { maxRetries: unset } })).toBeNull();
  });

  it('retries 429 and 503 only', () => {
    expect(plan({ status: 503 })).toBe(500);
    for (const status of [400, 401, 404, 409, 500, 502]) expect(plan({ status })).toBeNull();
  });

  it('gives up past maxRetries, or when the wait would pass the time allowed', () => {
    expect(plan({ retry: 4 })).toBeNull();
    expect(plan({ retry: 4, options: { maxRetries: 4 } })).toBe(4000);
    // A monthly quota's Retry-After is days: not waited for.
    expect(plan({ retryAfterMs: 3 * 86_400_000 })).toBeNull();
    expect(plan({ retryAfterMs: 10_000, elapsedMs: 50_001 })).toBeNull();
    // The jitter never takes a wait that fits past the limit.
    expect(plan({ retryAfterMs: 10_000, elapsedMs: 49_900, random: () => 0.999 })).toBe(10_100);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30_000);
    expect(parseRetryAfter(new Date(NOW - 30_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
  });
});

function transport(fetch: ReturnType<typeof scriptedFetch>['fetch'], clock: Clock = fakeClock(NOW).clock, retry = {}) {
  return new Transport({ apiKey: 'svc_sk_test_x', baseUrl: 'http://api.test/', fetch, retry, clock, random: () => 0.5 });
}

describe('Transport retries', () => {
  it('retries a 429 after its Retry-After, with one Idempotency-Key for every attempt of a POST', async () => {
    const { fetch, sent } = scriptedFetch(
      apiError(429, 'rate_limited', { 'retry-after': '2' }),
      apiError(503, 'service_unavailable', { 'retry-after': '1' }),
      json(201, { data: { id: 'we_1' } }),
    );
    const { clock, slept } = fakeClock(NOW);
    expect(await transport(fetch, clock).data('POST', '/v1/partner/webhook-endpoints', { body: { url: 'https://x.test' } })).toEqual({
      id: 'we_1',
    });
    expect(slept).toEqual([2250, 1250]);
    const keys = sent.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(sent[0]).toMatchObject({
      url: 'http://api.test/v1/partner/webhook-endpoints',
      headers: { authorization: 'Bearer svc_sk_test_x', 'content-type': 'application/json' },
      body: { url: 'https://x.test' },
    });
  });

  it('retries a call whose connection failed, GET or keyed POST, with the same key; never one sent with retry: false', async () => {
    const failed = () => {
      throw new TypeError('fetch failed');
    };
    const get = scriptedFetch(failed, json(200, { data: { id: 'rst_1' } }));
    expect(await transport(get.fetch).data('GET', '/v1/partner/restaurants/rst_1')).toEqual({ id: 'rst_1' });
    expect(get.sent).toHaveLength(2);

    const post = scriptedFetch(failed, failed, json(201, { data: { id: 'we_1' } }));
    const { clock, slept } = fakeClock(NOW);
    await transport(post.fetch, clock).data('POST', '/v1/partner/webhook-endpoints', { body: { url: 'https://x.test' } });
    expect(new Set(post.sent.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    expect(slept).toEqual([750, 1250]);

    const unkeyed = scriptedFetch(failed);
    const withoutRetries = new Transport({
      apiKey: 'k',
      baseUrl: 'http://api.test',
      fetch: unkeyed.fetch,
      retry: false,
      clock,
      random: () => 0,
    });
    await expect(withoutRetries.data('POST', '/v1/partner/webhook-endpoints', { body: {} })).rejects.toThrow('fetch failed');
    expect(unkeyed.sent).toHaveLength(1);
  });

  it('gives each POST a key of its own, keeps the one given, and sends none with a GET', async () => {
    const { fetch, sent } = scriptedFetch(json(200, { data: 1 }), json(200, { data: 2 }), json(200, { data: 3 }), json(200, { data: 4 }));
    const client = transport(fetch);
    await client.data('POST', '/a');
    await client.data('POST', '/a');
    await client.data('POST', '/a', { idempotencyKey: 'mine' });
    await client.data('GET', '/a', { query: { limit: 5, cursor: undefined } });
    const keys = sent.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(['mine', undefined]);
    expect(sent[3]!.url).toBe('http://api.test/a?limit=5');
  });

  it('stops after maxRetries and throws the last answer as a typed error', async () => {
    const refusal = () => apiError(503, 'service_unavailable', { 'retry-after': '1' });
    const { fetch, sent } = scriptedFetch(refusal, refusal, refusal);
    const error = await transport(fetch, undefined, { maxRetries: 2 })
      .data('GET', '/v1/partner/me')
      .catch((err: unknown) => err);
    expect(sent).toHaveLength(3);
    expect(isApiError(error, 'service_unavailable')).toBe(true);
    expect(error).toMatchObject({ status: 503, requestId: 'req_0123', retryAfterSeconds: 1 });
  });

  it('does not wait for a Retry-After past the time allowed (a quota used up for the month)', async () => {
    const { fetch, sent } = scriptedFetch(apiError(429, 'quota_exceeded', { 'retry-after': String(20 * 86_400) }));
    const { clock, slept } = fakeClock(NOW);
    const error = await transport(fetch, clock)
      .data('GET', '/v1/partner/restaurants/rst_1/menu')
      .catch((err: unknown) => err);
    expect(sent).toHaveLength(1);
    expect(slept).toEqual([]);
    expect(error).toMatchObject({ code: 'quota_exceeded', status: 429, retryAfterSeconds: 20 * 86_400 });
  });

  it('gives up within maxElapsedMs in all, whatever the number of retries', async () => {
    const refusal = () => apiError(429, 'rate_limited', { 'retry-after': '20' });
    const { fetch, sent } = scriptedFetch(refusal, refusal, refusal, refusal);
    const { clock, slept } = fakeClock(NOW);
    await expect(transport(fetch, clock, { maxRetries: 10, jitterMs: 0 }).data('GET', '/x')).rejects.toThrow(PartnerApiError);
    expect(slept).toEqual([20_000, 20_000, 20_000]);
    expect(sent).toHaveLength(4);
  });

  it('never retries other errors, nor with retry: false', async () => {
    const { fetch, sent } = scriptedFetch(apiError(409, 'idempotency_key_conflict'), apiError(429, 'rate_limited', { 'retry-after': '1' }));
    await expect(transport(fetch).data('POST', '/x')).rejects.toMatchObject({ code: 'idempotency_key_conflict', status: 409 });
    const once = new Transport({
      apiKey: 'k',
      baseUrl: 'http://api.test',
      fetch,
      retry: false,
      clock: fakeClock().clock,
      random: Math.random,
    });
    await expect(once.data('POST', '/x')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['idempotency-key']).toBeUndefined();
  });

  it('stops waiting when the call is aborted', async () => {
    const { fetch } = scriptedFetch(apiError(429, 'rate_limited', { 'retry-after': '1' }));
    const controller = new AbortController();
    const clock = {
      now: () => NOW,
      sleep: (_ms: number, signal?: AbortSignal) => (controller.abort(), Promise.reject(signal!.reason as Error)),
    };
    await expect(transport(fetch, clock).data('GET', '/x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('errors', () => {
  it('reads the envelope, and gives answers without one a code by status', async () => {
    const { fetch } = scriptedFetch(
      json(400, { error: { code: 'invalid_cursor', message: 'Bad cursor.', requestId: 'req_1', param: 'cursor' } }),
      new Response('<html>Bad gateway</html>', { status: 502, headers: { 'x-request-id': 'req_2' } }),
      json(418, { error: { code: 'brand_new_code', message: 'New.', requestId: 'req_3' } }),
    );
    const client = transport(fetch);
    await expect(client.data('GET', '/x')).rejects.toMatchObject({
      code: 'invalid_cursor',
      status: 400,
      requestId: 'req_1',
      param: 'cursor',
    });
    await expect(client.data('GET', '/x')).rejects.toMatchObject({
      code: 'upstream_error',
      status: 502,
      requestId: 'req_2',
      message: 'HTTP 502',
    });
    await expect(client.data('GET', '/x')).rejects.toMatchObject({ code: 'brand_new_code', status: 418 });
  });
});
