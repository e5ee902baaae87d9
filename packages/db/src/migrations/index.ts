import type { Migration } from 'kysely/migration';
import * as foundation from './2026-11-22-foundation.js';
import * as catalog from './2026-11-23-catalog.js';
import * as webhooks from './2026-11-24-webhooks.js';
import * as contacts from './2026-11-25-contacts.js';
import * as menuPageSwitch from './2026-11-26-menu-page-switch.js';
import * as webhookFairClaim from './2026-11-27-webhook-fair-claim.js';
import * as outboxPublishedMenu from './2026-11-28-outbox-published-menu.js';
import * as gatewayDailyCounts from './2026-11-29-gateway-daily-counts.js';
import * as webhookSignatureScheme from './2026-11-30-webhook-signature-scheme.js';
import * as webhookWaitingIndexes from './2026-12-01-webhook-waiting-indexes.js';
import * as menuVersion from './2026-12-02-menu-version.js';
import * as webhookRetention from './2026-12-03-webhook-retention.js';
import * as webhookLeaseHot from './2026-12-04-webhook-lease-hot.js';
import * as webhookWaitingOnGrants from './2026-12-05-webhook-waiting-on-grants.js';
import * as auditEvents from './2026-12-06-audit-events.js';
import * as outboxTraceContext from './2026-12-07-outbox-trace-context.js';
import * as accounts from './2026-12-08-accounts.js';
import * as embedViews from './2026-12-09-embed-views.js';
import * as itemDrafts from './2026-12-10-item-drafts.js';
import * as outboxNotify from './2026-12-11-outbox-notify.js';
import * as idempotencyClaimToken from './2026-12-12-idempotency-claim-token.js';
import * as sessionMailboxProof from './2026-12-13-session-mailbox-proof.js';

/** Every migration, in order. Names sort by date; a migration is never edited once it has landed. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-foundation': foundation,
  '2026-11-23-catalog': catalog,
  '2026-11-24-webhooks': webhooks,
  '2026-11-25-contacts': contacts,
  '2026-11-26-menu-page-switch': menuPageSwitch,
  '2026-11-27-webhook-fair-claim': webhookFairClaim,
  '2026-11-28-outbox-published-menu': outboxPublishedMenu,
  '2026-11-29-gateway-daily-counts': gatewayDailyCounts,
  '2026-11-30-webhook-signature-scheme': webhookSignatureScheme,
  '2026-12-01-webhook-waiting-indexes': webhookWaitingIndexes,
  '2026-12-02-menu-version': menuVersion,
  '2026-12-03-webhook-retention': webhookRetention,
  '2026-12-04-webhook-lease-hot': webhookLeaseHot,
  '2026-12-05-webhook-waiting-on-grants': webhookWaitingOnGrants,
  '2026-12-06-audit-events': auditEvents,
  '2026-12-07-outbox-trace-context': outboxTraceContext,
  '2026-12-08-accounts': accounts,
  '2026-12-09-embed-views': embedViews,
  '2026-12-10-item-drafts': itemDrafts,
  '2026-12-11-outbox-notify': outboxNotify,
  '2026-12-12-idempotency-claim-token': idempotencyClaimToken,
  '2026-12-13-session-mailbox-proof': sessionMailboxProof,
};
