import { createServer, type RequestListener, type Server } from 'node:http';
import { flushTraces } from '@partner/tracing';
import type { Logger } from './logger.js';

export interface RunningServer {
  server: Server;
  port: number;
  /** The server's request listener: `handler` behind the drain's `Connection: close`. */
  listener: RequestListener;
  /**
   * From now on every response closes its connection once sent (`Connection: close`): a client on a
   * keep-alive connection reconnects, through its load balancer, to a replica that stays, and no
   * connection is left idle for `close()` to cut while a request may be on its way.
   */
  drain(): void;
  /** Stops accepting; requests in flight and open streams get `graceMs` (10 s unless given) to end. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `port` (0 picks a free one) and resolves once the socket is bound. */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  let draining = false;
  const listener: RequestListener = (req, res) => {
    if (draining) res.shouldKeepAlive = false;
    handler(req, res);
  };
  const server = createServer(listener);
  // Behind load balancers with their own idle timeouts, keep sockets a little longer than they do.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    listener,
    drain: () => {
      draining = true;
    },
    close: (graceMs = 10_000) => closeGracefully(server, graceMs),
  };
}

/** Stops accepting, lets in-flight requests finish (up to `graceMs`), then drops what is left. */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    // Keep-alive sockets go idle one by one as their last response ends; close each as it does.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearTimeout(deadline);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * The tail of every `main.ts`: on SIGTERM or SIGINT shut the service down gracefully (drain, stop
 * accepting, let in-flight requests and streams finish, close pools), send the spans still buffered,
 * then exit.
 */
export function shutdownOnSignals(options: { logger: Logger; stop: () => Promise<void> }): void {
  let stopping = false;
  const onSignal = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    options.logger.info({ signal }, 'shutting down');
    try {
      await options.stop();
      await flushTraces();
      options.logger.info('stopped');
      process.exitCode = 0;
    } catch (err) {
      options.logger.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    }
    options.logger.flush?.();
    setTimeout(() => process.exit(), 100).unref();
  };
  process.once('SIGTERM', () => void onSignal('SIGTERM'));
  process.once('SIGINT', () => void onSignal('SIGINT'));
}
