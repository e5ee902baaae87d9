import type {
  TDeliveryEventType,
  TWebhookDelivery,
  TWebhookEndpoint,
  TWebhookRecovery,
  ZCreateWebhookEndpoint,
  ZDeliveryStatus,
  ZRecoverWebhookDeliveries,
  ZRotateWebhookSecret,
  ZUpdateWebhookEndpoint,
  ZWebhookEndpointWithSecret,
} from '@partner/contracts';
import type { z } from 'zod';
import { PageIterator } from './pagination.js';
import type { ListOptions } from './restaurants.js';
import { path, type MutationOptions, type RequestOptions, type Transport } from './transport.js';

export type CreateWebhookEndpoint = z.input<typeof ZCreateWebhookEndpoint>;
export type UpdateWebhookEndpoint = z.input<typeof ZUpdateWebhookEndpoint>;
export type RecoverWebhookDeliveries = z.input<typeof ZRecoverWebhookDeliveries>;
export type RotateWebhookSecret = z.input<typeof ZRotateWebhookSecret>;
/** Only the create and rotate answers carry the signing secret: store it then. */
export type WebhookEndpointWithSecret = z.infer<typeof ZWebhookEndpointWithSecret>;

export interface DeliveryListOptions extends ListOptions {
  endpointId?: string;
  eventId?: string;
  eventType?: TDeliveryEventType;
  status?: z.infer<typeof ZDeliveryStatus>;
}

const base = '/v1/partner/webhook-endpoints';

/** Your webhook endpoints (scope webhooks:manage). */
export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  list(options: ListOptions = {}): PageIterator<TWebhookEndpoint> {
    return new PageIterator((cursor) =>
      this.transport.json('GET', base, { query: { limit: options.limit, cursor }, signal: options.signal }),
    );
  }

  create(body: CreateWebhookEndpoint, options: MutationOptions = {}): Promise<WebhookEndpointWithSecret> {
    return this.transport.data('POST', base, { ...options, body });
  }

  get(id: string, options: RequestOptions = {}): Promise<TWebhookEndpoint> {
    return this.transport.data('GET', path`/v1/partner/webhook-endpoints/${id}`, options);
  }

  /** Changes what the body names; `status: 'active'` re-enables a disabled endpoint. */
  update(id: string, body: UpdateWebhookEndpoint, options: MutationOptions = {}): Promise<TWebhookEndpoint> {
    return this.transport.data('PATCH', path`/v1/partner/webhook-endpoints/${id}`, { ...options, body });
  }

  delete(id: string, options: MutationOptions = {}): Promise<{ id: string; deleted: true }> {
    return this.transport.data('DELETE', path`/v1/partner/webhook-endpoints/${id}`, options);
  }

  /** A new secret; the old one keeps signing alongside it for `overlapSeconds` (default 24 h). */
  rotateSecret(id: string, body: RotateWebhookSecret = {}, options: MutationOptions = {}): Promise<WebhookEndpointWithSecret> {
    return this.transport.data('POST', path`/v1/partner/webhook-endpoints/${id}/rotate-secret`, { ...options, body });
  }

  /**
   * Sends the endpoint a signed `ping` event now and answers with its delivery (status, response
   * status, duration): one attempt, never retried.
   */
  test(id: string, options: MutationOptions = {}): Promise<TWebhookDelivery> {
    return this.transport.data('POST', path`/v1/partner/webhook-endpoints/${id}/test`, options);
  }

  /** Sends again every event the endpoint has not received since `since` (once per event). */
  recover(id: string, body: RecoverWebhookDeliveries, options: MutationOptions = {}): Promise<TWebhookRecovery> {
    return this.transport.data('POST', path`/v1/partner/webhook-endpoints/${id}/recover`, { ...options, body });
  }
}

/** Delivery attempts of your endpoints, newest first, over the retention window. */
export class WebhookDeliveries {
  constructor(private readonly transport: Transport) {}

  list(options: DeliveryListOptions = {}): PageIterator<TWebhookDelivery> {
    const { signal, limit, endpointId, eventId, eventType, status } = options;
    return new PageIterator((cursor) =>
      this.transport.json('GET', '/v1/partner/webhook-deliveries', {
        query: { limit, endpointId, eventId, eventType, status, cursor },
        signal,
      }),
    );
  }

  /**
   * The same event again (same `evt_` id): a new delivery, or, while that event is still under way to
   * the endpoint (a retry waiting, or held), the attempt already under way, brought forward to now.
   */
  resend(id: string, options: MutationOptions = {}): Promise<TWebhookDelivery> {
    return this.transport.data('POST', path`/v1/partner/webhook-deliveries/${id}/resend`, options);
  }
}
