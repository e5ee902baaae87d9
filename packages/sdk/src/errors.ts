import type { ErrorCode } from '@partner/contracts';

/**
 * A code the API answered with. The API may add codes within v1 (spec section 9), so a code this
 * version does not know still arrives, as a plain string.
 */
export type PartnerErrorCode = ErrorCode | (string & {});

/** Every non-2xx answer of the API: `{ error: { code, message, requestId, param } }` (spec section 7). */
export class PartnerApiError extends Error {
  readonly code: PartnerErrorCode;
  readonly status: number;
  /** Quote it to support. Empty when the answer did not come from the API (a proxy in between). */
  readonly requestId: string;
  /** The offending input (`cursor`, `url`, `body.message`…), when the API names one. */
  readonly param: string | undefined;
  /** Seconds the API asked to wait (`Retry-After`), on 429 and 503. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    code: PartnerErrorCode;
    message: string;
    status: number;
    requestId?: string;
    param?: string;
    retryAfterSeconds?: number;
  }) {
    super(init.message);
    this.name = 'PartnerApiError';
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId ?? '';
    this.param = init.param;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/**
 * A concierge stream cut before its turn ended (the connection dropped, or the body ended early): the
 * answer is incomplete. `cause` is the network error, when there was one.
 */
export class ConciergeStreamError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConciergeStreamError';
  }
}

/** Whether `error` is an API error, and, given codes, one of those: `if (isApiError(err, 'not_found'))`. */
export function isApiError(error: unknown): error is PartnerApiError;
export function isApiError<C extends ErrorCode>(error: unknown, ...codes: [C, ...C[]]): error is PartnerApiError & { code: C };
export function isApiError(error: unknown, ...codes: string[]): boolean {
  return error instanceof PartnerApiError && (codes.length === 0 || codes.includes(error.code));
}

/** A code for answers without our envelope (a proxy's 502 page, an empty 503), so `code` is always set. */
function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'invalid_api_key';
    case 404:
      return 'not_found';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    case 502:
      return 'upstream_error';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_request';
  }
}

interface ErrorEnvelope {
  error?: { code?: unknown; message?: unknown; requestId?: unknown; param?: unknown };
}

/** Reads a failed response into a PartnerApiError (the body is consumed). */
export async function apiErrorFrom(res: Response, retryAfterSeconds?: number): Promise<PartnerApiError> {
  let body: ErrorEnvelope = {};
  try {
    body = (await res.json()) as ErrorEnvelope;
  } catch {
    // not JSON: the fallback below
  }
  const error = body?.error ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  return new PartnerApiError({
    code: text(error.code) ?? codeForStatus(res.status),
    message: text(error.message) ?? `HTTP ${res.status}`,
    status: res.status,
    requestId: text(error.requestId) ?? res.headers.get('x-request-id') ?? undefined,
    param: text(error.param),
    retryAfterSeconds,
  });
}
