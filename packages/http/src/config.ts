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
    maxBodyBytes: env.MAX_BODY_BYTES,
  };
}
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
