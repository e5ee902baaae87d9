import { z } from 'zod';

/** Every machine-readable error code the platform answers with: the spec's codes plus ours (additive). */
export const ErrorCode = {
  InvalidRequest: 'invalid_request',
  InvalidCursor: 'invalid_cursor',
  CursorFilterMismatch: 'cursor_filter_mismatch',
  InvalidApiKey: 'invalid_api_key',
  Unauthorized: 'unauthorized',
  ForbiddenScope: 'forbidden_scope',
  ForbiddenKeyType: 'forbidden_key_type',
  OriginNotAllowed: 'origin_not_allowed',
  SubscriptionInactive: 'subscription_inactive',
  AccountSuspended: 'account_suspended',
  ExpiredSignature: 'expired_signature',
  InvalidSignature: 'invalid_signature',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  Conflict: 'conflict',
  ModelNotReady: 'model_not_ready',
  ModelInvalid: 'model_invalid',
  IdempotencyKeyConflict: 'idempotency_key_conflict',
  IdempotencyKeyInUse: 'idempotency_key_in_use',
  PayloadTooLarge: 'payload_too_large',
  RequestTimeout: 'request_timeout',
  RequestHeaderFieldsTooLarge: 'request_header_fields_too_large',
  RangeNotSatisfiable: 'range_not_satisfiable',
  UnsupportedMediaType: 'unsupported_media_type',
  RateLimited: 'rate_limited',
  QuotaExceeded: 'quota_exceeded',
  ConciergeAllowanceExhausted: 'concierge_allowance_exhausted',
  ConciergeUnavailable: 'concierge_unavailable',
  ProviderNotConfigured: 'provider_not_configured',
  UpstreamError: 'upstream_error',
  InternalError: 'internal_error',
  ServiceUnavailable: 'service_unavailable',
  EndpointLimitReached: 'endpoint_limit_reached',
  KeyLimitReached: 'key_limit_reached',
  EndpointDisabled: 'endpoint_disabled',
  MenuTooLarge: 'menu_too_large',
  Forbidden: 'forbidden',
  CsrfTokenInvalid: 'csrf_token_invalid',
  InvalidCredentials: 'invalid_credentials',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ZErrorCode = z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]);

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_cursor: 400,
  cursor_filter_mismatch: 400,
  invalid_api_key: 401,
  unauthorized: 401,
  forbidden_scope: 403,
  forbidden: 403,
  csrf_token_invalid: 403,
  invalid_credentials: 401,
  forbidden_key_type: 403,
  origin_not_allowed: 403,
  subscription_inactive: 403,
  account_suspended: 403,
  expired_signature: 403,
  invalid_signature: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  model_not_ready: 409,
  model_invalid: 422,
  idempotency_key_conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  request_timeout: 408,
  request_header_fields_too_large: 431,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  rate_limited: 429,
  quota_exceeded: 429,
  concierge_allowance_exhausted: 429,
  concierge_unavailable: 403,
  provider_not_configured: 503,
  upstream_error: 502,
  internal_error: 500,
  service_unavailable: 503,
  endpoint_limit_reached: 409,
  key_limit_reached: 409,
  endpoint_disabled: 409,
  menu_too_large: 409,
};

export function statusFor(code: ErrorCode): number {
  return STATUS[code];
}

/** Spec section 7: `{ error: { code, message, requestId } }`; `param` names the offending input. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    requestId: z.string(),
    param: z.string().optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;
