import { z } from 'zod';
import { parseEnv, zPort } from '@partner/http';

const ZDashboardEnv = z.object({
  DASHBOARD_PORT: zPort(8085),
  DASHBOARD_HOST: z.string().min(1).default('0.0.0.0'),
  /** Console, the dashboard's backend: `/console/*` is forwarded to it, and nothing else. */
  CONSOLE_URL: z.url().default('http://127.0.0.1:8084'),
  /** The gateway's public origin: the embed previews load its scripts. */
  PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long console may take to answer a forwarded request (a model upload included) before a 503. */
  CONSOLE_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).default(5),
});

export function loadDashboardConfig(env: Record<string, string | undefined>) {
  const parsed = parseEnv(ZDashboardEnv, env);
  return {
    port: parsed.DASHBOARD_PORT,
    host: parsed.DASHBOARD_HOST,
    consoleUrl: parsed.CONSOLE_URL,
    publicBaseUrl: parsed.PUBLIC_BASE_URL,
    logLevel: parsed.LOG_LEVEL,
    consoleTimeoutMs: parsed.CONSOLE_TIMEOUT_MS,
    shutdown: { drainMs: parsed.SHUTDOWN_DRAIN_SECONDS * 1000, streamGraceMs: 5_000 },
  };
}
export type DashboardConfig = ReturnType<typeof loadDashboardConfig>;
