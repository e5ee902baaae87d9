import type { Express } from 'express';
import { listen, type RunningServer } from './lifecycle.js';
import type { Logger } from './logger.js';

export interface StartedService {
  port: number;
  logger: Logger;
  /** Graceful: stop accepting, finish in-flight requests, then close pools. */
  stop: () => Promise<void>;
}

/** Listens with an app built from dependencies, and ties their closing to the server's. */
export async function startWith(
  built: { app: Express; logger: Logger; closeDeps: () => Promise<void> },
  port: number,
  host?: string,
): Promise<StartedService> {
  let server: RunningServer;
  try {
    server = await listen(built.app, port, host);
  } catch (err) {
    await built.closeDeps();
    throw err;
  }
  return {
    port: server.port,
    logger: built.logger,
    stop: async () => {
      await server.close();
      await built.closeDeps();
    },
  };
}
