import type { RequestListener, Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { listen, type RunningServer } from './lifecycle.js';
import type { Logger } from './logger.js';
import { type MetricsServer, type ServiceMetrics, startMetricsServer } from './metrics.js';
import { type Readiness, withReadinessRoute } from './readiness.js';

export interface StartedService {
  port: number;
  /** Where `GET /metrics` answers, when the service keeps metrics. */
  metricsPort: number | null;
  logger: Logger;
  /**
   * For SIGTERM: `/readyz` turns 503 at once, the service keeps serving through the drain period
   * (every response closing its connection), then stops as `stop` does. Both reject when they have not
   * finished within drain, stream grace and closing time (`ShutdownTimings`).
   */
  shutdown: () => Promise<void>;
  /** At once: stop accepting, let in-flight requests and streams finish, close pools (tests, restarts). */
  stop: () => Promise<void>;
}

/** `SHUTDOWN_DRAIN_SECONDS` and `SHUTDOWN_STREAM_GRACE_SECONDS`, in milliseconds (`commonConfig().shutdown`). */
export interface ShutdownTimings {
  drainMs: number;
  streamGraceMs: number;
  /**
   * How long stopping the background work and closing the pools may take after that (5 s). A shutdown
   * still running then rejects, and the process exits 1 rather than outlive its termination grace.
   */
  closeMs?: number;
}

const DEFAULT_CLOSE_MS = 5_000;

export interface ServiceParts {
  app: RequestListener;
  logger: Logger;
  /** Answers `GET /readyz` ahead of the app; drained when shutdown begins. */
  readiness: Readiness;
  /** Work of the process that is not HTTP (the webhooks dispatcher): stopped as soon as shutdown begins. */
  stopBackground?: () => Promise<void>;
  /** Runs once everything above has stopped. */
  closeDeps: () => Promise<void>;
  /** Handlers on the server beyond its request listener (the gateway's HTTP edge cases). */
  onServer?: (server: Server, listener: RequestListener) => void;
  /** Served on a port of their own (`commonConfig().metrics`) until the service has stopped. */
  metrics?: { registry: ServiceMetrics; port: number; host: string };
}

/** Listens with an app built from dependencies, and ties their closing to the server's. */
export async function startWith(
  parts: ServiceParts,
  at: { port: number; host?: string; shutdown: ShutdownTimings },
): Promise<StartedService> {
  // A service that cannot start stops what it already started, then closes its dependencies.
  const abandon = async (err: unknown): Promise<never> => {
    await parts.stopBackground?.().catch((stopErr: unknown) => parts.logger.error({ err: stopErr }, 'background work failed to stop'));
    await parts.closeDeps();
    throw err;
  };
  let server: RunningServer;
  try {
    server = await listen(withReadinessRoute(parts.readiness, parts.app), at.port, at.host);
  } catch (err) {
    return abandon(err);
  }
  parts.onServer?.(server.server, server.listener);
  let metricsServer: MetricsServer | null = null;
  if (parts.metrics) {
    try {
      metricsServer = await startMetricsServer(parts.metrics.registry, parts.metrics.port, parts.metrics.host);
    } catch (err) {
      await server.close(0);
      return abandon(err);
    }
  }
  let stopping: Promise<void> | null = null;
  const stopAfter = async (drainMs: number) => {
    parts.readiness.drain();
    server.drain();
    // Caught at once: a failure while the drain sleeps must not become an unhandled rejection.
    const background = parts.stopBackground?.().catch((err: unknown) => parts.logger.error({ err }, 'background work failed to stop'));
    if (drainMs > 0) {
      parts.logger.info({ drainMs }, 'draining: unready, still serving');
      await sleep(drainMs);
    }
    await Promise.all([server.close(at.shutdown.streamGraceMs), background]);
    await Promise.all([parts.closeDeps(), metricsServer?.close()]);
  };
  const bounded = (drainMs: number) => {
    const limitMs = drainMs + at.shutdown.streamGraceMs + (at.shutdown.closeMs ?? DEFAULT_CLOSE_MS);
    return withDeadline(stopAfter(drainMs), limitMs, `shutdown did not finish within ${limitMs} ms`);
  };
  return {
    port: server.port,
    metricsPort: metricsServer?.port ?? null,
    logger: parts.logger,
    shutdown: () => (stopping ??= bounded(at.shutdown.drainMs)),
    stop: () => (stopping ??= bounded(0)),
  };
}

/** `work`, or a rejection once `ms` have passed (the work goes on, unawaited: the process is leaving). */
async function withDeadline(work: Promise<void>, ms: number, message: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
