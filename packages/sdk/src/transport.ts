import { apiErrorFrom } from './errors.js';
import { type Clock, parseRetryAfter, planRetry, type RetryOptions } from './retry.js';

/** The part of `fetch` the client uses; pass your own to add logging, a proxy, or a test double. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  fetch: FetchLike;
  retry: RetryOptions | false;
  clock: Clock;
  random: () => number;
}

/** Options every call takes. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** Options of calls that change something (POST, PATCH, DELETE). */
export interface MutationOptions extends RequestOptions {
  /** Sent as `Idempotency-Key` instead of a generated one (keep it to retry the call yourself later). */
  idempotencyKey?: string;
}

export type Query = Record<string, string | number | undefined>;

interface Call extends MutationOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses besides 2xx that are answers rather than errors (304 to a conditional request). */
  accept?: readonly number[];
}

/** `/v1/partner/items/{id}` with `id` escaped: ids come from callers and end up in a path. */
export const path = (strings: TemplateStringsArray, ...ids: string[]) =>
  strings.reduce((out, part, i) => out + part + (i < ids.length ? encodeURIComponent(ids[i]!) : ''), '');

function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  // randomUUID exists only in secure contexts in browsers; getRandomValues everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Sends requests: authentication, JSON, retries on 429, 503 and failed connections, errors as PartnerApiError. */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  get clock(): Clock {
    return this.options.clock;
  }

  /** The response of the last attempt, 2xx or accepted; anything else is thrown as PartnerApiError. */
  async send(method: string, path: string, call: Call = {}): Promise<Response> {
    const { clock, random, retry } = this.options;
    const url = this.url(path, call.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      accept: 'application/json',
      ...call.headers,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    // One key for every attempt: a POST answered 503 may have run all the same, and the key lets the
    // API answer the retry with the first run's answer instead of running it twice (spec 5.5).
    const key = call.idempotencyKey ?? (retry !== false && method !== 'GET' ? newIdempotencyKey() : undefined);
    if (key !== undefined) headers['idempotency-key'] = key;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const started = clock.now();
    const plan = (attempt: number, status: number, retryAfterMs: number | null) =>
      retry === false
        ? null
        : planRetry({ retry: attempt, status, retryAfterMs, elapsedMs: clock.now() - started, random, options: retry });
    for (let attempt = 1; ; attempt++) {
      let res: Response;
      try {
        res = await this.options.fetch(url, { method, headers, body, signal: call.signal });
      } catch (err) {
        // No answer: the connection failed or broke (fetch's TypeError; a stale keep-alive socket, a
        // gateway restarting). Retried as a 503 when a second run cannot do the call twice: a GET, or a
        // call carrying its Idempotency-Key. An abort is the caller's and ends the call.
        const safe = method === 'GET' || key !== undefined;
        const delay = err instanceof TypeError && safe && !call.signal?.aborted ? plan(attempt, 503, null) : null;
        if (delay === null) throw err;
        await clock.sleep(delay, call.signal);
        continue;
      }
      if (res.ok || call.accept?.includes(res.status)) return res;
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), clock.now());
      const delay = plan(attempt, res.status, retryAfterMs);
      if (delay === null) throw await apiErrorFrom(res, retryAfterMs === null ? undefined : Math.ceil(retryAfterMs / 1000));
      await res.body?.cancel();
      await clock.sleep(delay, call.signal);
    }
  }

  async json<T>(method: string, path: string, call?: Call): Promise<T> {
    return (await (await this.send(method, path, call)).json()) as T;
  }

  /** The `data` of a single-resource answer (spec 2.1). */
  async data<T>(method: string, path: string, call?: Call): Promise<T> {
    return (await this.json<{ data: T }>(method, path, call)).data;
  }

  private url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.toString();
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`;
  }
}
