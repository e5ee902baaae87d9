import { z } from 'zod';
import {
  commonConfig,
  crossFieldRule,
  parseEnv,
  pemFromEnv,
  storageConfig,
  storageEnvRule,
  storageEnvShape,
  zAssetUrlTtlSeconds,
  ZCommonEnv,
  zPort,
} from '@partner/http';

/**
 * How much longer than a signed URL's life the sweep keeps an unreferenced file: the margin covers an
 * upload between writing its files and pointing its item at them, and clocks that disagree a little.
 */
export const SWEEP_GRACE_MARGIN_SECONDS = 3600;

const ZConsoleEnv = ZCommonEnv.extend({
  CONSOLE_PORT: zPort(8084),
  /** The address console listens on: the dashboard's backend is never public (127.0.0.1 locally). */
  CONSOLE_HOST: z.string().min(1).default('0.0.0.0'),
  /** Bearer token of the dashboard backend and the operators' CLI; never exposed publicly. */
  CONSOLE_ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters'),
  /**
   * The dashboard's origin: connect links and sign-in links open there, and its session cookie is
   * Secure. Plain http only on this machine (localhost, 127.0.0.1).
   */
  CONSOLE_PUBLIC_URL: z
    .url()
    .default('http://localhost:8085')
    .refine((url) => {
      const { protocol, hostname } = new URL(url);
      return protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
    }, 'must be https:// (plain http only for localhost)'),
  /**
   * Proxies in front of console whose X-Forwarded-For is believed, for sign-in limits per client: the
   * dashboard's server (1, as locally), and the ingress before it in Kubernetes (2). Never more than are there.
   */
  CONSOLE_TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(1),
  /** How long a dashboard sign-in lasts. */
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(7 * 24),
  /** smtp://user:pass@host:587 — sign-in links and invitations are e-mailed through it; unset, only passwords sign in. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SIGN_IN_EMAIL_FROM: z.string().default('Partner Platform <sign-in@partner.invalid>'),
  /** The asset store uploaded models are written to; catalog serves them from it (docs/storage.md). */
  ...storageEnvShape,
  /** Must match the catalog's: the sweep waits longer than any signed URL lives. */
  ASSET_URL_TTL_SECONDS: zAssetUrlTtlSeconds,
  /** How long a file no item references any more is kept before the sweep deletes it (one day). */
  ASSET_SWEEP_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600),
  /** How often the sweep runs; 0 turns it off (another replica, or an operator, sweeps). */
  ASSET_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  MODEL_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  /** Derives each restaurant's public menu page key; the catalog, which renders the page, shares it. */
  MENU_PAGE_KEY_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** live in production; test where no model is configured (the widget then answers from the sandbox). */
  MENU_PAGE_KEY_ENVIRONMENT: z.enum(['live', 'test']).default('live'),
  /** The gateway's public origin: the public menu page's key allows only it. */
  PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
  /** The webhooks service, whose operator routes the dashboard's webhook actions call. */
  WEBHOOKS_URL: z.url().default('http://127.0.0.1:8082'),
  /** PEM of the internal JWT private key (the gateway's): signs console's operator tokens. */
  INTERNAL_JWT_PRIVATE_KEY: z.string().min(1, 'is required (PEM private key)'),
})
  .check(storageEnvRule)
  .check(
    crossFieldRule<{ ASSET_URL_TTL_SECONDS: number; ASSET_SWEEP_GRACE_SECONDS: number }>(
      ['ASSET_URL_TTL_SECONDS', 'ASSET_SWEEP_GRACE_SECONDS'],
      (env, ctx) => {
        const least = env.ASSET_URL_TTL_SECONDS + SWEEP_GRACE_MARGIN_SECONDS;
        if (env.ASSET_SWEEP_GRACE_SECONDS < least) {
          ctx.addIssue({
            code: 'custom',
            path: ['ASSET_SWEEP_GRACE_SECONDS'],
            message: `must be at least ${least} (ASSET_URL_TTL_SECONDS plus ${SWEEP_GRACE_MARGIN_SECONDS}): a file must outlive every signed URL to it`,
          });
        }
      },
    ),
  );

export function loadConsoleConfig(env: Record<string, string | undefined>) {
  const parsed = parseEnv(ZConsoleEnv, env);
  return {
    ...commonConfig(parsed),
    port: parsed.CONSOLE_PORT,
    host: parsed.CONSOLE_HOST,
    adminToken: parsed.CONSOLE_ADMIN_TOKEN,
    publicUrl: parsed.CONSOLE_PUBLIC_URL,
    sessionTtlMs: parsed.SESSION_TTL_HOURS * 3600_000,
    trustProxyHops: parsed.CONSOLE_TRUST_PROXY_HOPS,
    mail: parsed.SMTP_URL ? { smtpUrl: parsed.SMTP_URL, from: parsed.SIGN_IN_EMAIL_FROM } : null,
    storage: storageConfig(parsed),
    sweep: { graceMs: parsed.ASSET_SWEEP_GRACE_SECONDS * 1000, intervalMs: parsed.ASSET_SWEEP_INTERVAL_SECONDS * 1000 },
    maxModelBytes: parsed.MODEL_MAX_BYTES,
    webhooksUrl: parsed.WEBHOOKS_URL,
    internalPrivateKey: pemFromEnv(parsed.INTERNAL_JWT_PRIVATE_KEY),
    menuPageKeySecret: parsed.MENU_PAGE_KEY_SECRET,
    menuPageKeyEnvironment: parsed.MENU_PAGE_KEY_ENVIRONMENT,
    publicBaseUrl: parsed.PUBLIC_BASE_URL,
  };
}
export type ConsoleConfig = ReturnType<typeof loadConsoleConfig>;
