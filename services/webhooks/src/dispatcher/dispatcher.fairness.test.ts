import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '@partner/db';
import { useTestDatabase } from '@partner/testing';
import { arrangeEndpoint, arrangeOwner, emitItemUpdated, testDispatcher } from '../testing/webhook-fixtures.js';
import { WebhookSender } from './sender.js';

const SLOW_ANSWER_MS = 9_000;

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(() => database.drop());

/** A receiver whose `/slow/*` paths answer after 9 s and whose `/fast` path notes each event's arrival. */
async function startReceivers() {
  const arrivals = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url!.startsWith('/slow/')) {
        setTimeout(() => res.writeHead(204).end(), SLOW_ANSWER_MS).unref();
        return;
      }
      arrivals.set((JSON.parse(body) as { id: string }).id, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const endpointOf = (owner: Owner, url: string) => arrangeEndpoint(database.db, owner, { url, enabledEvents: ['item.updated'] });

describe('the dispatcher', () => {
  it("delivers one owner's fast endpoint within 3 s while three other owners' 100 endpoints each take 9 s", async () => {
    const receivers = await startReceivers();
    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    const dispatcher = testDispatcher(database.db, sender, 60_000);
    try {
      const crowded = await Promise.all([1, 2, 3].map(() => arrangeOwner(database.db)));
      const { owner: quiet } = await arrangeOwner(database.db);
      for (const { owner } of crowded) for (let i = 0; i < 100; i++) await endpointOf(owner, receivers.url(`/slow/${i}`));
      await endpointOf(quiet, receivers.url('/fast'));

      // Three events of each crowded owner: 900 attempts that each hold a connection for 9 s, more than
      // the dispatcher sends and claims ahead at once.
      for (const { owner } of crowded) for (let i = 0; i < 3; i++) await emitItemUpdated(database.db, owner);
      dispatcher.start(50);
      const emitted = new Map<string, number>();
      for (let i = 0; i < 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        emitted.set(await emitItemUpdated(database.db, quiet), Date.now());
      }
      await expect.poll(() => receivers.arrivals.size, { timeout: 5_000, interval: 50 }).toBe(emitted.size);
      const waits = [...emitted].map(([id, at]) => receivers.arrivals.get(id)! - at);
      // Far below the crowded owners' 9 s (2 s on a quiet machine; a loaded one adds a little).
      expect(Math.max(...waits)).toBeLessThan(3_000);
    } finally {
      // The slow attempts fail at once when their connections close, so the dispatcher stops promptly.
      await receivers.close();
      await dispatcher.stop();
      await sender.close();
    }
  }, 30_000);
});
