import { InternalTokenSigner, INTERNAL_TOKEN_HEADER, type OwnerRef, type Principal } from '@partner/auth';
import { AppError } from '@partner/contracts';

const TIMEOUT_MS = 5_000;
const OPERATOR: Principal = { kind: 'operator' };

/**
 * Console's way into the webhooks service. The webhook tables are that service's: console changes
 * them only through it, with an internal token for the operator or, for a signed-in person, for the
 * owner they act for, the way the gateway calls services for keys. Answers pass through as given.
 */
export class WebhooksServiceClient {
  private readonly tokens: InternalTokenSigner;

  constructor(private readonly options: { baseUrl: string; internalPrivateKey: string; timeoutMs?: number }) {
    this.tokens = new InternalTokenSigner(options.internalPrivateKey);
  }

  /** The request id travels along, so an error the webhooks service answers carries console's id. */
  async call(request: {
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    path: string;
    query?: Record<string, unknown>;
    /** Sent as JSON when present (console parsed it already). */
    body?: unknown;
    requestId: string;
    /** A signed-in person's owner, whom the call is limited to; the operator (every owner) without it. */
    actingFor?: OwnerRef;
  }): Promise<{ status: number; body: unknown }> {
    const { method, path, query = {}, body, requestId, actingFor } = request;
    const principal: Principal = actingFor ? { kind: 'owner', owner: actingFor } : OPERATOR;
    const url = new URL(path, this.options.baseUrl);
    for (const [name, value] of Object.entries(query)) {
      if (typeof value === 'string') url.searchParams.set(name, value);
    }
    // A GET carries no body on (fetch refuses one): whatever a client sent with it is not the request.
    const sent = method === 'GET' ? undefined : body;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          [INTERNAL_TOKEN_HEADER]: this.tokens.tokenFor(principal, 'webhooks'),
          'x-request-id': requestId,
          ...(sent === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: sent === undefined ? undefined : JSON.stringify(sent),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? TIMEOUT_MS),
      });
      return { status: res.status, body: await res.json() };
    } catch (err) {
      throw new AppError('service_unavailable', 'The webhooks service is unavailable. Retry shortly.', {
        cause: err,
        headers: { 'Retry-After': '1' },
      });
    }
  }
}
