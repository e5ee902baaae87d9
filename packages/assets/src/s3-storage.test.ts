import { createServer, type Server } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from './s3-storage.js';

const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
const optionsAt = (port: number, timeoutMs: number) => ({
  bucket: 'partner-assets',
  region: 'us-east-1',
  endpoint: `http://127.0.0.1:${port}`,
  forcePathStyle: true,
  timeoutMs,
  credentials,
});
const driverAt = (port: number, timeoutMs: number) => new S3Storage(optionsAt(port, timeoutMs));

/** The error's `code`s down its `cause` chain and aggregates, as the services' fault classifier reads them. */
function codesOf(err: unknown): string[] {
  const { code, cause, errors } = (err ?? {}) as { code?: unknown; cause?: unknown; errors?: unknown };
  return [
    ...(typeof code === 'string' ? [code] : []),
    ...(cause ? codesOf(cause) : []),
    ...(Array.isArray(errors) ? errors.flatMap(codesOf) : []),
  ];
}

describe('S3Storage when the store fails', () => {
  let silent: Server;
  let silentPort: number;
  let closedPort: number;

  beforeAll(async () => {
    // Reads requests and never answers: a frozen store, as the SDK sees it. (Reading lets a socket the
    // driver gives up on close here too, so `close` below proves the driver let go of every one.)
    silent = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
  });
  afterAll(() => new Promise((resolve) => silent.close(resolve)));

  it('gives up on a store that never answers at the deadline, with a TimeoutError, for every call', async () => {
    const storage = driverAt(silentPort, 300);
    try {
      for (const call of [
        () => storage.stat('a.glb'),
        () => storage.read('a.glb'),
        () => storage.put('a.glb', Buffer.from('x')),
        () => storage.delete('a.glb'),
        () => storage.list()[Symbol.asyncIterator]().next(),
      ]) {
        const started = Date.now();
        const err = await call().catch((e: unknown) => e);
        expect((err as Error).name).toBe('TimeoutError');
        expect(Date.now() - started).toBeGreaterThanOrEqual(290);
        expect(Date.now() - started).toBeLessThan(1000);
      }
    } finally {
      storage.close();
    }
  });

  it('cuts a download whose bytes stop coming', async () => {
    // Answers a read with its headers and the first bytes of 100, then nothing more.
    const stalling = createServer((socket) =>
      socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\nContent-Type: model/gltf-binary\r\n\r\nglTF')),
    );
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const { port } = stalling.address() as { port: number };
    const storage = new S3Storage({ ...optionsAt(port, 2000), stalledBodyMs: 300 });
    try {
      const body = await storage.read('a.glb');
      const started = Date.now();
      const err = await buffer(body).catch((e: unknown) => e);
      expect((err as Error).name).toBe('TimeoutError');
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      storage.close();
      stalling.close();
    }
  });

  it('rejects with the refused connection when nothing listens', async () => {
    const storage = driverAt(closedPort, 2000);
    try {
      const err = await storage.stat('a.glb').catch((e: unknown) => e);
      expect(codesOf(err)).toContain('ECONNREFUSED');
    } finally {
      storage.close();
    }
  });
});
