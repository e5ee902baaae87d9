import { z } from 'zod';

/** `z.coerce.boolean()` turns "false" into true; environment switches need this instead. */
export const zBoolFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const zPort = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export class ConfigError extends Error {}

/** Parses the environment with a schema; a bad or missing value fails naming the variable, never its value. */
export function parseEnv<T extends z.ZodType>(schema: T, env: Record<string, string | undefined>): z.infer<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}

/** `MAX_BODY_BYTES` unless configured: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** Shared by every service: where the database, Redis and logs are. Services extend it with their own. */
export const ZCommonEnv = z.object({
  DATABASE_URL: z.string().min(1, 'is required (postgres://...)'),
  REDIS_URL: z.string().min(1, 'is required (redis://...)'),
  REDIS_KEY_PREFIX: z.string().default('ptr:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The largest request body, one setting for the whole platform: the gateway refuses a bigger one
   * (declared or counted while proxying) before it reaches a service, and every service before parsing.
   */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(DEFAULT_MAX_BODY_BYTES),
  /**
   * Deadlines (docs/decisions.md, "Resilience"): nothing waits on a dependency forever. Connecting to
   * Postgres, and waiting for a free pooled connection when all are busy...
   */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  /** ...one statement (Postgres cancels it; the client gives up a second later if Postgres is frozen)... */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** ...a transaction left idle (its locks are freed)... */
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** ...one Redis command, queued while disconnected or sent (connecting too)... */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  /**
   * Connections each pool of the service opens at most (the webhooks service has two: its API's and its
   * dispatcher's). Replicas x pools x this must stay under Postgres's max_connections, or behind
   * PgBouncer (docs/deployment.md).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  /** ...and a whole request: unanswered by then, it is `503 service_unavailable` with Retry-After. */
  REQUEST_DEADLINE_MS: z.coerce.number().int().positive().default(8000),
  /** `/readyz`: how long each check (Postgres, Redis, storage, an upstream) may take before it counts as failed. */
  READINESS_CHECK_TIMEOUT_MS: z.coerce.number().int().positive().default(1000),
  /**
   * On SIGTERM the service answers `/readyz` 503 at once but keeps serving this long, while load
   * balancers (Kubernetes endpoints, kube-proxy, the ingress) stop sending it new requests; every
   * response from then on closes its connection. Under Kubernetes it must cover the endpoints' update
   * (a few seconds), here or as a `preStop` sleep before the signal.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).default(5),
  /**
   * Then it stops accepting, and requests in flight and open streams (SSE) get this long to end on
   * their own before their connections are cut. The pod's terminationGracePeriodSeconds must exceed
   * the drain, this, and a few seconds to close the pools.
   */
  SHUTDOWN_STREAM_GRACE_SECONDS: z.coerce.number().min(0).default(30),
  /**
   * Prometheus metrics (`GET /metrics`) on this port, apart from the service's own: never public, and
   * never behind the gateway. Unset: no metrics are kept or served. 0: any free port (tests).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address the metrics port listens on. */
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
  /** Access lines of successful answers written, as a fraction (1: all, 0: none); errors are always written. */
  ACCESS_LOG_SUCCESS_SAMPLE: z.coerce.number().min(0).max(1).default(1),
  /** `json` (one object a line, for collectors) or `pretty` (for a person reading a terminal or a file). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
});

/** A service behind the gateway also verifies the gateway's internal JWT. */
export const ZBehindGatewayEnv = ZCommonEnv.extend({
  /** PEM of the gateway's public key; services verify the internal JWT with it. */
  INTERNAL_JWT_PUBLIC_KEY: z.string().min(1, 'is required (PEM public key of the gateway)'),
});

/** The common part of every service's configuration, from its parsed environment. */
export function commonConfig(env: z.infer<typeof ZCommonEnv>) {
  return {
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_KEY_PREFIX,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    accessLogSuccessSample: env.ACCESS_LOG_SUCCESS_SAMPLE,
    maxBodyBytes: env.MAX_BODY_BYTES,
    databasePoolMax: env.DATABASE_POOL_MAX,
    dbDeadlines: {
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    requestDeadlineMs: env.REQUEST_DEADLINE_MS,
    readinessCheckTimeoutMs: env.READINESS_CHECK_TIMEOUT_MS,
    shutdown: { drainMs: secondsToMs(env.SHUTDOWN_DRAIN_SECONDS), streamGraceMs: secondsToMs(env.SHUTDOWN_STREAM_GRACE_SECONDS) },
    metrics: env.METRICS_PORT === undefined ? null : { port: env.METRICS_PORT, host: env.METRICS_HOST },
  };
}

const secondsToMs = (seconds: number) => Math.round(seconds * 1000);
export type CommonConfig = ReturnType<typeof commonConfig>;

/** PEM values often arrive through env files with literal "\n"; accept both forms. */
export const pemFromEnv = (value: string): string => value.replace(/\\n/g, '\n');

/** For `main.ts`: a configuration error ends the process with its message alone, not a stack trace. */
export function loadConfigOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

/**
 * A rule across several variables (`.check(crossFieldRule(...))`). It runs whenever the variables it
 * reads parsed, whatever else failed, so that one start reports every error at once: zod skips a plain
 * `superRefine` as soon as any field of the object has failed.
 */
export function crossFieldRule<T extends object>(
  fields: readonly (keyof T & string)[],
  rule: (env: T, ctx: z.RefinementCtx<T>) => void,
): z.core.$ZodCheck<T> {
  const reads = new Set<PropertyKey>(fields);
  return z.superRefine<T>(rule, { when: (payload) => !payload.issues.some((issue) => reads.has(issue.path?.[0] ?? '')) });
}

/**
 * Each named secret must differ from the others. Every purpose signs with a secret of its own, so that
 * a signature made for one (a cursor) is never valid as another (a URL).
 */
export function distinctSecrets<K extends string>(...names: K[]) {
  return crossFieldRule<Record<K, string>>(names, (env, ctx) => {
    names.forEach((name, index) => {
      const twin = names.slice(0, index).find((other) => env[other] === env[name]);
      if (twin) ctx.addIssue({ code: 'custom', path: [name], message: `must differ from ${twin} (one secret per purpose)` });
    });
  });
}
