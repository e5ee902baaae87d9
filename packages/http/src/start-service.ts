import type { RequestListener, Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { listen, type RunningServer } from './lifecycle.js';
import type { Logger } from './logger.js';
import { type Readiness, withReadinessRoute } from './readiness.js';

export interface StartedService {
  port: number;
  logger: Logger;
  /**
   * For SIGTERM: `/readyz` turns 503 at once, the service keeps serving through the drain period
   * (every response closing its connection), then stops as `stop` does.
   */
  shutdown: () => Promise<void>;
  /** At once: stop accepting, let in-flight requests and streams finish, close pools (tests, restarts). */
  stop: () => Promise<void>;
}

/** `SHUTDOWN_DRAIN_SECONDS` and `SHUTDOWN_STREAM_GRACE_SECONDS`, in milliseconds (`commonConfig().shutdown`). */
export interface ShutdownTimings {
  drainMs: number;
  streamGraceMs: number;
}

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
}

/** Listens with an app built from dependencies, and ties their closing to the server's. */
export async function startWith(
  parts: ServiceParts,
  at: { port: number; host?: string; shutdown: ShutdownTimings },
): Promise<StartedService> {
  let server: RunningServer;
  try {
    server = await listen(withReadinessRoute(parts.readiness, parts.app), at.port, at.host);
  } catch (err) {
    await parts.closeDeps();
    throw err;
  }
  parts.onServer?.(server.server, server.listener);
  let stopping: Promise<void> | null = null;
  const stopAfter = async (drainMs: number) => {
    parts.readiness.drain();
    server.drain();
    const background = parts.stopBackground?.();
    if (drainMs > 0) {
      parts.logger.info({ drainMs }, 'draining: unready, still serving');
      await sleep(drainMs);
    }
    await Promise.all([server.close(at.shutdown.streamGraceMs), background]);
    await parts.closeDeps();
  };
  return {
    port: server.port,
    logger: parts.logger,
    shutdown: () => (stopping ??= stopAfter(at.shutdown.drainMs)),
    stop: () => (stopping ??= stopAfter(0)),
  };
}
