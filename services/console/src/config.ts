import { z } from 'zod';
import { ZCommonEnv, parseEnv, zPort } from '@partner/kit';

const ZConsoleEnv = ZCommonEnv.omit({ INTERNAL_JWT_PUBLIC_KEY: true }).extend({
  CONSOLE_PORT: zPort(8084),
  /** Bearer token of the dashboard backend and the operators' CLI; never exposed publicly. */
  CONSOLE_ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters'),
  /** Where owners open connect links (the dashboard's origin). */
  CONSOLE_PUBLIC_URL: z.url().default('http://localhost:8084'),
  /** The local-directory asset store uploaded models are written to (catalog serves them). */
  ASSET_STORAGE_DIR: z.string().min(1, 'is required (a directory path)'),
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
  /** Signs the dashboard's delivery-log cursors (the same secret as the services' is fine). */
  CURSOR_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters'),
});

export function loadConsoleConfig(env: Record<string, string | undefined>) {
  const parsed = parseEnv(ZConsoleEnv, env);
  return {
    port: parsed.CONSOLE_PORT,
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    redisPrefix: parsed.REDIS_KEY_PREFIX,
    logLevel: parsed.LOG_LEVEL,
    adminToken: parsed.CONSOLE_ADMIN_TOKEN,
    publicUrl: parsed.CONSOLE_PUBLIC_URL,
    assetStorageDir: parsed.ASSET_STORAGE_DIR,
    maxModelBytes: parsed.MODEL_MAX_BYTES,
    cursorSecret: parsed.CURSOR_SIGNING_SECRET,
    menuPageKeySecret: parsed.MENU_PAGE_KEY_SECRET,
    menuPageKeyEnvironment: parsed.MENU_PAGE_KEY_ENVIRONMENT,
    publicBaseUrl: parsed.PUBLIC_BASE_URL,
  };
}
export type ConsoleConfig = ReturnType<typeof loadConsoleConfig>;
