import { z } from 'zod';
import { crossFieldRule, zBoolFlag } from './config.js';

/**
 * Where catalog and console keep model files (docs/storage.md): both read the same variables, so both
 * reach the same files. `storageConfig` turns them into what `storageFromConfig` (@partner/assets) takes.
 */
export const storageEnvShape = {
  /** `local` (a directory, the default for `pnpm start`) or `s3` (any S3-compatible bucket). */
  ASSET_STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** The local driver's directory; catalog and console must share it. */
  ASSET_STORAGE_DIR: z.string().min(1).optional(),
  ASSET_S3_BUCKET: z.string().min(3).optional(),
  ASSET_S3_REGION: z.string().min(1).optional(),
  /** An S3-compatible store's URL (MinIO, R2...); unset for AWS itself. */
  ASSET_S3_ENDPOINT: z.url().optional(),
  /** Bucket in the path rather than the host name: most self-hosted stores need true. */
  ASSET_S3_FORCE_PATH_STYLE: zBoolFlag(false),
  /** Prepended to every object name, e.g. `models/`; the bucket may then hold other things. */
  ASSET_S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/, 'must be path segments ending in "/", e.g. models/')
    .optional(),
  /** The longest one call to the bucket may take before the request answers 503 (the SDK's retries included). */
  ASSET_S3_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
};

/**
 * How long a signed asset URL lives (catalog signs them). Console reads it too: its sweep keeps a file
 * no item references longer than any URL to it can live.
 */
export const zAssetUrlTtlSeconds = z.coerce
  .number()
  .int()
  .min(30)
  .max(7 * 24 * 3600)
  .default(900);

type StorageEnv = z.infer<z.ZodObject<typeof storageEnvShape>>;

/** The variables each driver needs (`.check(storageEnvRule)` on a service's schema). */
export const storageEnvRule = crossFieldRule<StorageEnv>(
  ['ASSET_STORAGE_DRIVER', 'ASSET_STORAGE_DIR', 'ASSET_S3_BUCKET', 'ASSET_S3_REGION'],
  (env, ctx) => {
    const required =
      env.ASSET_STORAGE_DRIVER === 'local' ? (['ASSET_STORAGE_DIR'] as const) : (['ASSET_S3_BUCKET', 'ASSET_S3_REGION'] as const);
    for (const name of required) {
      if (!env[name])
        ctx.addIssue({ code: 'custom', path: [name], message: `is required when ASSET_STORAGE_DRIVER is ${env.ASSET_STORAGE_DRIVER}` });
    }
  },
);

export function storageConfig(env: StorageEnv) {
  return env.ASSET_STORAGE_DRIVER === 'local'
    ? { driver: 'local' as const, dir: env.ASSET_STORAGE_DIR! }
    : {
        driver: 's3' as const,
        bucket: env.ASSET_S3_BUCKET!,
        region: env.ASSET_S3_REGION!,
        endpoint: env.ASSET_S3_ENDPOINT,
        forcePathStyle: env.ASSET_S3_FORCE_PATH_STYLE,
        prefix: env.ASSET_S3_PREFIX,
        timeoutMs: env.ASSET_S3_TIMEOUT_MS,
      };
}
