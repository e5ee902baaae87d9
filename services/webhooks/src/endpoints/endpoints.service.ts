import type { z } from 'zod';
import type { OwnerPrincipal } from '@partner/auth';
import {
  findOwnedWebhookEndpoint,
  insertDeliveries,
  insertWebhookEndpoint,
  listOwnedWebhookEndpoints,
  lockOwnerEndpoints,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
} from '../webhooks.repository.js';
import { openEndpointSecret, sealEndpointSecret } from './endpoint-secrets.js';
import { decodeListCursor, encodeListCursor, generateWebhookSecret, isStandardWebhooksSecret } from '@partner/signing';
import { DEFAULT_REQUEST_DEADLINE_MS, newId, parseWith } from '@partner/http';
import { presentDelivery, presentWebhookEndpoint } from '../deliveries/webhook-records.js';
import {
  AppError,
  type TPingEvent,
  type TWebhookDelivery,
  ZRecoverWebhookDeliveries,
  type ZCreateWebhookEndpoint,
  type ZUpdateWebhookEndpoint,
} from '@partner/contracts';
import { sendEvent } from '../dispatcher/send-event.js';
import { recoverEndpoint, recoveryRange } from '../deliveries/recovery.js';
import type { WebhooksDeps } from '../deps.js';
import { checkTargetResolves, checkTargetUrl, TargetRefused } from '../targets/target-policy.js';

/** How long the previous secret keeps signing after a rotation, unless the caller says otherwise. */
const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 3600;

const noSuchEndpoint = () => new AppError('not_found', 'No such webhook endpoint.');

async function checkTarget(deps: WebhooksDeps, raw: string): Promise<string> {
  try {
    const url = checkTargetUrl(raw, deps.targets);
    await checkTargetResolves(url, deps.targets);
    return url.toString();
  } catch (err) {
    if (err instanceof TargetRefused) throw new AppError('invalid_request', `${err.message}.`, { param: 'url' });
    throw err;
  }
}

export async function createEndpoint(deps: WebhooksDeps, principal: OwnerPrincipal, body: z.infer<typeof ZCreateWebhookEndpoint>) {
  const url = await checkTarget(deps, body.url);
  // One event becomes a delivery per endpoint: an owner's endpoints are capped, counted under a lock
  // so that concurrent creations cannot pass the cap together.
  const id = newId('we');
  const secret = generateWebhookSecret();
  const row = await deps.db.transaction().execute(async (tx) => {
    if ((await lockOwnerEndpoints(tx, principal.owner)) >= deps.maxEndpointsPerOwner) {
      throw new AppError(
        'endpoint_limit_reached',
        `An account may have ${deps.maxEndpointsPerOwner} webhook endpoints. Delete one, or send several event types to one endpoint.`,
      );
    }
    return insertWebhookEndpoint(tx, {
      id,
      owner: principal.owner,
      url,
      enabledEvents: [...new Set(body.enabledEvents)],
      description: body.description ?? null,
      sealedSecret: sealEndpointSecret(deps.sealing, id, secret),
      signatureScheme: body.signatureScheme,
    });
  });
  return { ...presentWebhookEndpoint(row), secret };
}

export async function getEndpoint(deps: WebhooksDeps, principal: OwnerPrincipal, id: string) {
  const row = await findOwnedWebhookEndpoint(deps.db, principal.owner, id);
  if (!row) throw noSuchEndpoint();
  return presentWebhookEndpoint(row);
}

/** An owner's endpoints, newest first, a page at a time; cursors are bound to the owner. */
export async function listEndpoints(deps: WebhooksDeps, principal: OwnerPrincipal, query: { limit: number; cursor?: string }) {
  const binding = { listing: 'webhook-endpoints', scope: principal.owner.id, filters: [] };
  const position = query.cursor ? decodeListCursor(deps.cursorKey, query.cursor, binding) : null;
  const before = position ? { createdAt: new Date(position.createdAt!), id: position.id! } : null;
  const rows = await listOwnedWebhookEndpoints(deps.db, principal.owner, { before, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? encodeListCursor(deps.cursorKey, binding, { createdAt: last.created_at.toISOString(), id: last.id })
      : null;
  return { data: page.map(presentWebhookEndpoint), meta: { nextCursor } };
}

export async function patchEndpoint(
  deps: WebhooksDeps,
  principal: OwnerPrincipal,
  id: string,
  body: z.infer<typeof ZUpdateWebhookEndpoint>,
) {
  const existing = await findOwnedWebhookEndpoint(deps.db, principal.owner, id);
  if (!existing) throw noSuchEndpoint();
  // Every secret we make is valid for Standard Webhooks; one stored by hand before may not be, and a
  // receiver's library could not even load it.
  if (body.signatureScheme === 'standard-webhooks' && !isStandardWebhooksSecret(openEndpointSecret(deps.sealing, id, existing.secret))) {
    const message = "This endpoint's secret cannot sign Standard Webhooks: rotate the secret (overlapSeconds: 0), then switch.";
    throw new AppError('conflict', message, { param: 'signatureScheme' });
  }
  const row = await updateWebhookEndpoint(deps.db, id, {
    url: body.url === undefined ? undefined : await checkTarget(deps, body.url),
    enabled_events: body.enabledEvents ? [...new Set(body.enabledEvents)] : undefined,
    description: body.description,
    signature_scheme: body.signatureScheme,
    // Re-enabling clears the reason; deliveries skipped meanwhile can be resent from the log.
    ...(body.status === 'active' ? { status: 'active' as const, disabled_reason: null } : {}),
  });
  if (!row) throw noSuchEndpoint();
  return presentWebhookEndpoint(row);
}

export async function deleteEndpoint(deps: WebhooksDeps, principal: OwnerPrincipal, id: string) {
  const existing = await findOwnedWebhookEndpoint(deps.db, principal.owner, id);
  if (!existing) throw noSuchEndpoint();
  await updateWebhookEndpoint(deps.db, id, { deleted_at: deps.now() });
  return { id, deleted: true as const };
}

/** A new secret, shown once; the old one keeps signing beside it for the overlap. */
export async function rotateSecret(
  deps: WebhooksDeps,
  principal: OwnerPrincipal,
  id: string,
  overlapSeconds = DEFAULT_ROTATION_OVERLAP_SECONDS,
) {
  const existing = await findOwnedWebhookEndpoint(deps.db, principal.owner, id);
  if (!existing) throw noSuchEndpoint();
  const secret = generateWebhookSecret();
  const row = await rotateWebhookEndpointSecret(deps.db, id, {
    sealedSecret: sealEndpointSecret(deps.sealing, id, secret),
    previousUntil: overlapSeconds > 0 ? new Date(deps.now().getTime() + overlapSeconds * 1000) : null,
  });
  if (!row) throw noSuchEndpoint();
  return { ...presentWebhookEndpoint(row), secret };
}

/**
 * Re-sends every event the endpoint has not received since a time (recover). The endpoint is looked up
 * before the body is read, so another owner's endpoint is 404 whatever the body says.
 */
export async function recoverOwnedEndpoint(deps: WebhooksDeps, principal: OwnerPrincipal, id: string, rawBody: unknown) {
  const existing = await findOwnedWebhookEndpoint(deps.db, principal.owner, id);
  if (!existing) throw noSuchEndpoint();
  const body = parseWith(ZRecoverWebhookDeliveries, rawBody ?? {}, 'body');
  const now = deps.now();
  return recoverEndpoint(deps.db, id, recoveryRange(body, now, { since: 'since', until: 'until' }), now);
}

/** How long a test event waits for the receiver: inside the request's deadline, never past the usual 10 s. */
const testEventTimeoutMs = (deps: WebhooksDeps) =>
  Math.min(10_000, Math.max(1_000, (deps.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS) - 2_000));

/**
 * Sends a `ping` event to this endpoint now, whatever its enabledEvents and status (a disabled endpoint
 * too, so that a fix can be checked before re-enabling), signed and sent exactly as deliveries are.
 * One attempt, answered with its outcome and kept in the delivery log; never retried, never fanned
 * out, and its answer changes nothing (a 410 or a failure does not disable the endpoint).
 */
export async function sendTestEvent(deps: WebhooksDeps, principal: OwnerPrincipal, id: string): Promise<TWebhookDelivery> {
  const endpoint = await findOwnedWebhookEndpoint(deps.db, principal.owner, id);
  if (!endpoint) throw noSuchEndpoint();
  const now = deps.now();
  const event: TPingEvent = {
    id: newId('evt'),
    type: 'ping',
    createdAt: now.toISOString(),
    data: {
      endpointId: endpoint.id,
      message: 'A test event from the Partner API: if your endpoint verified its signature, it is ready for real events.',
    },
  };
  const deliveryId = newId('whd');
  const outcome = await sendEvent(
    { sender: deps.sender, sealing: deps.sealing, now: deps.now, timeoutMs: testEventTimeoutMs(deps) },
    endpoint,
    { ...event, createdAt: now },
    deliveryId,
  );
  const row = {
    id: deliveryId,
    event_id: event.id,
    event_type: event.type,
    endpoint_id: endpoint.id,
    attempt: 1,
    status: outcome.ok ? ('succeeded' as const) : ('failed' as const),
    response_status: outcome.status,
    duration_ms: outcome.durationMs,
    error: outcome.error,
    next_attempt_at: null,
    created_at: now,
  };
  await insertDeliveries(deps.db, [row]);
  return presentDelivery({ ...row, claimed_until: null });
}
