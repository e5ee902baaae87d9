import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDirectoryStorage } from '@partner/assets';
import { Readiness, silentLogger, storageCheck } from '@partner/http';
import { freePort } from '@partner/testing';
import { useAppHarness } from '../testing/app-harness.js';

// /readyz's storage check on both drivers, through the storage's own interface: a bucket on a real
// S3-protocol server (the real SDK) and a local directory; then a store that refuses and one that
// never answers.
const h = useAppHarness({ storage: 's3' });
let silent: Server;
let silentPort: number;
let directory: string;
beforeAll(async () => {
  silent = createServer((socket) => socket.resume());
  silentPort = await freePort();
  await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
  directory = await mkdtemp(join(tmpdir(), 'ptr-readiness-'));
});
afterAll(async () => {
  await new Promise((resolve) => silent.close(resolve));
  await rm(directory, { recursive: true, force: true });
});

const reportOn = (storage: Parameters<typeof storageCheck>[0]) =>
  new Readiness({ checks: [storageCheck(storage)], timeoutMs: 500, logger: silentLogger() }).report();

describe('the storage readiness check', () => {
  it('is ok on a bucket and on a local directory', async () => {
    expect(await reportOn(h.deps.storage)).toEqual({ status: 'ready', checks: { storage: 'ok' } });
    expect(await reportOn(new LocalDirectoryStorage(directory))).toEqual({ status: 'ready', checks: { storage: 'ok' } });
  });

  it('names the storage, and what is wrong, for a bucket or a directory that is not there', async () => {
    expect(await reportOn(h.s3!.storage({ bucket: 'no-such-bucket' }))).toEqual({
      status: 'unready',
      checks: { storage: 'no such bucket' },
    });
    expect(await reportOn(new LocalDirectoryStorage(join(directory, 'not-mounted')))).toEqual({
      status: 'unready',
      checks: { storage: 'no such directory' },
    });
  });

  it('names the storage when the store refuses, or does not answer within the check’s deadline', async () => {
    const refusing = h.s3!.storage({ endpoint: `http://127.0.0.1:${await freePort()}`, timeoutMs: 5_000 });
    expect(await reportOn(refusing)).toEqual({
      status: 'unready',
      checks: { storage: expect.stringMatching(/^(unreachable|timeout after 500 ms)$/) },
    });
    const silentStore = h.s3!.storage({ endpoint: `http://127.0.0.1:${silentPort}`, timeoutMs: 5_000 });
    const began = performance.now();
    expect(await reportOn(silentStore)).toEqual({ status: 'unready', checks: { storage: 'timeout after 500 ms' } });
    expect(performance.now() - began).toBeLessThan(1_500);
  });
});
