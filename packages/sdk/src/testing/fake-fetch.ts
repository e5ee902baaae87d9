import type { Clock } from '../retry.js';
import type { FetchLike } from '../transport.js';

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers from a script, one response per call, and records what was sent. */
export function scriptedFetch(...answers: (Response | (() => Response))[]) {
  const sent: SentRequest[] = [];
  const fetch: FetchLike = async (url, init) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${init.method} ${url}`);
    return typeof answer === 'function' ? answer() : answer;
  };
  return { fetch, sent };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const apiError = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: `${code} happened`, requestId: 'req_0123' } }, headers);

/** A clock whose sleeps pass at once and are recorded. */
export function fakeClock(start = Date.UTC(2026, 0, 1)) {
  const slept: number[] = [];
  const clock: Clock & { ms: number } = {
    ms: start,
    now: () => clock.ms,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      slept.push(ms);
      clock.ms += ms;
    },
  };
  return { clock, slept };
}
