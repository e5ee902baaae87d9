import { connect, createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from './s3-storage.js';
import { startS3TestServer, type S3TestServer } from './testing/s3-test-server.js';

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
        expect(Date.now() - started).toBeLessThan(2_000);
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
    // The whole call's deadline (5 s) is far from the stalled-body limit, so the bound tells them apart.
    const storage = new S3Storage({ ...optionsAt(port, 5000), stalledBodyMs: 300 });
    try {
      const body = await storage.read('a.glb');
      const started = Date.now();
      const err = await buffer(body).catch((e: unknown) => e);
      expect((err as Error).name).toBe('TimeoutError');
      expect(Date.now() - started).toBeLessThan(3_000);
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

/** A TCP proxy to `port` that lets bytes towards it through at `bytesPerSecond` (answers come back at once). */
async function throttledProxy(port: number, bytesPerSecond: number): Promise<{ port: number; close(): void }> {
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    const throttle = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        setTimeout(() => done(null, chunk), (chunk.length / bytesPerSecond) * 1000);
      },
    });
    client.pipe(throttle).pipe(upstream).pipe(client);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', cut).once('close', cut);
    upstream.once('error', cut).once('close', cut);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

describe('S3Storage on a working store', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3TestServer();
  });
  afterAll(() => s3.close());

  it('answers other calls while many downloads are held open by viewers who read slowly', async () => {
    const storage = s3.storage({ timeoutMs: 1000 });
    await storage.put('popular.glb', randomBytes(1024));
    // More open downloads than the SDK's default pool of 50 sockets; no one reads them.
    const held: Readable[] = [];
    try {
      for (let i = 0; i < 60; i++) held.push(await storage.read('popular.glb'));
      expect(await storage.stat('popular.glb')).toMatchObject({ size: 1024 });
      expect(await storage.check()).toBeNull();
    } finally {
      for (const body of held) body.destroy();
    }
  });

  it('gives an upload time by its size, beyond the deadline for an answer', async () => {
    // 2 MiB at 4 MiB/s: half a second on the wire, twice the 250 ms an answer may take.
    const proxy = await throttledProxy(Number(new URL(s3.endpoint).port), 4 * 1024 * 1024);
    const storage = s3.storage({ endpoint: `http://127.0.0.1:${proxy.port}`, timeoutMs: 250 });
    try {
      await storage.put('large.glb', randomBytes(2 * 1024 * 1024));
      expect(await storage.stat('large.glb')).toMatchObject({ size: 2 * 1024 * 1024 });
    } finally {
      proxy.close();
    }
  });

  it('bounds a lookup of credentials that never ends (a metadata service that hangs) by the deadline', async () => {
    const storage = s3.storage({ timeoutMs: 300, credentials: () => new Promise(() => {}) });
    const started = Date.now();
    const err = await storage.stat('a.glb').catch((e: unknown) => e);
    expect((err as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
