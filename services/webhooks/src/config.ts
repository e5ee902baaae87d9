import { z } from 'zod';
import { commonConfig, crossFieldRule, parseEnv, pemFromEnv, ZBehindGatewayEnv, zBoolFlag, zPort } from '@partner/http';
import { SealingKeys } from '@partner/signing';
import { RECOVERY_WINDOW_DAYS } from './deliveries/recovery.js';

const ZWebhooksEnv = ZBehindGatewayEnv.extend({
  WEBHOOKS_PORT: zPort(8082),
  /** HMAC key for pagination cursors of the delivery log; every webhooks replica must share it. */
  CURSOR_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /**
   * Keys that seal endpoint signing secrets (and stored answers carrying them) at rest:
   * `id:base64(32 bytes)`, comma-separated, the sealing key first; older keys still open.
   */
  WEBHOOK_SEALING_KEYS: z.string().transform((spec, ctx) => {
    try {
      return SealingKeys.parse(spec);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
      return z.NEVER;
    }
  }),
  /** true only for local development and tests: allows http and private, loopback or link-local targets. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: zBoolFlag(false),
  /** First retry delay; later ones double (60, 120, ... 3840 s by default). Fractions for tests. */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(60),
  /**
   * How long a dispatcher holds an attempt before another may take it (a crashed one's come back then).
   * At least 15: an attempt (10 s), recording its answer, and a moment to wait for a slot.
   */
  WEBHOOK_LEASE_SECONDS: z.coerce.number().min(15).max(3600).default(60),
  /** menu.updated is sent once a restaurant's changes have been quiet this long... */
  WEBHOOK_MENU_QUIET_SECONDS: z.coerce.number().min(0).default(5),
  /** ...or this long after a burst's first change, whichever comes first. */
  WEBHOOK_MENU_MAX_DELAY_SECONDS: z.coerce.number().min(0).default(60),
  /** smtp://user:pass@host:587 — owners with a contact e-mail are mailed when an endpoint is disabled. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  NOTIFY_EMAIL_FROM: z.string().default('Partner Platform <notifications@partner.invalid>'),
  /** false: this process serves the API only and leaves delivering to other replicas. */
  WEBHOOK_DISPATCHER_ENABLED: zBoolFlag(true),
  /**
   * Where the dispatcher LISTENs for new outbox events (DATABASE_URL unless set). Behind PgBouncer in
   * transaction mode it must reach Postgres directly: a LISTEN through the pooler is lost with the
   * server connection it happened on, and events then wait for the once-a-second poll.
   */
  WEBHOOK_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Attempts in flight at once in one dispatcher. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(128),
  /** Attempts in flight at once for one owner in one dispatcher: the rest of the slots stay free for others. */
  WEBHOOK_OWNER_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(32),
  /** How often held deliveries are released or expired, ended grants swept and old rows deleted. */
  WEBHOOK_HOUSEKEEPING_SECONDS: z.coerce.number().min(0.01).max(3600).default(5),
  /**
   * Finished deliveries (the delivery log) are deleted this long after they were made. Never shorter
   * than the recovery window: everything a recovery may reach is still in the log.
   */
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce
    .number()
    .min(RECOVERY_WINDOW_DAYS, `must be at least ${RECOVERY_WINDOW_DAYS} (a recovery reaches back ${RECOVERY_WINDOW_DAYS} days)`)
    .default(30),
  /** Outbox events are deleted this long after their fan-out, once no delivery in the log refers to them. */
  WEBHOOK_OUTBOX_RETENTION_HOURS: z.coerce.number().min(1).default(24),
  /** Endpoints per owner (restaurant or integrator org): one event fans out to each of them. */
  WEBHOOK_MAX_ENDPOINTS_PER_OWNER: z.coerce.number().int().min(1).max(1000).default(16),
}).check(
  crossFieldRule(
    ['WEBHOOK_MENU_QUIET_SECONDS', 'WEBHOOK_MENU_MAX_DELAY_SECONDS'],
    (env: { WEBHOOK_MENU_QUIET_SECONDS: number; WEBHOOK_MENU_MAX_DELAY_SECONDS: number }, ctx) => {
      if (env.WEBHOOK_MENU_QUIET_SECONDS > env.WEBHOOK_MENU_MAX_DELAY_SECONDS) {
        ctx.addIssue({ code: 'custom', path: ['WEBHOOK_MENU_QUIET_SECONDS'], message: 'must not exceed WEBHOOK_MENU_MAX_DELAY_SECONDS' });
      }
    },
  ),
);

export function loadWebhooksConfig(env: Record<string, string | undefined>) {
  const own = parseEnv(ZWebhooksEnv, env);
  return {
    ...commonConfig(own),
    port: own.WEBHOOKS_PORT,
    internalPublicKey: pemFromEnv(own.INTERNAL_JWT_PUBLIC_KEY),
    cursorSecret: own.CURSOR_SIGNING_SECRET,
    sealing: own.WEBHOOK_SEALING_KEYS,
    allowPrivateTargets: own.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    retryBaseMs: own.WEBHOOK_RETRY_BASE_SECONDS * 1000,
    leaseMs: own.WEBHOOK_LEASE_SECONDS * 1000,
    smtpUrl: own.SMTP_URL ?? null,
    notifyFrom: own.NOTIFY_EMAIL_FROM,
    menuQuietMs: own.WEBHOOK_MENU_QUIET_SECONDS * 1000,
    menuMaxDelayMs: own.WEBHOOK_MENU_MAX_DELAY_SECONDS * 1000,
    dispatcherEnabled: own.WEBHOOK_DISPATCHER_ENABLED,
    listenUrl: own.WEBHOOK_LISTEN_URL ?? own.DATABASE_URL,
    maxEndpointsPerOwner: own.WEBHOOK_MAX_ENDPOINTS_PER_OWNER,
    concurrency: own.WEBHOOK_CONCURRENCY,
    ownerConcurrency: own.WEBHOOK_OWNER_CONCURRENCY,
    housekeepingMs: own.WEBHOOK_HOUSEKEEPING_SECONDS * 1000,
    retention: {
      deliveriesMs: own.WEBHOOK_DELIVERY_RETENTION_DAYS * 24 * 3600_000,
      outboxMs: own.WEBHOOK_OUTBOX_RETENTION_HOURS * 3600_000,
    },
  };
}
export type WebhooksConfig = ReturnType<typeof loadWebhooksConfig>;
