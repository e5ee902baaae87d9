import { createServer } from 'node:net';

/** A loopback port free right now: for a server a test starts later, or a service a test wants down. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A service that is down, on a port nobody else can take meanwhile: every connection is cut as it
 * comes. A port from `freePort` left closed can be bound by a server of another test running in
 * parallel, which then answers in the dead service's stead.
 */
export async function downService(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
