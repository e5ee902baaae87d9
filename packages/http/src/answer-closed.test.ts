import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { whenAnswerClosed } from './answer-closed.js';

describe('whenAnswerClosed', () => {
  it('runs every closer of a response, in order, from one close listener, whether the answer was sent or cut', async () => {
    const ran: string[] = [];
    const listenersAdded: number[] = [];
    const watch = (res: ServerResponse, name: string) => {
      const before = res.listenerCount('close');
      whenAnswerClosed(res, () => ran.push(`${name}:first`));
      whenAnswerClosed(res, () => ran.push(`${name}:second`));
      listenersAdded.push(res.listenerCount('close') - before);
    };
    const server = createServer((req, res) => {
      watch(res, req.url!.slice(1));
      if (req.url === '/sent') res.end('ok');
      else req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/sent`)).text()).toBe('ok');
      await expect(fetch(`${base}/cut`)).rejects.toThrow();
      await expect.poll(() => ran).toEqual(['sent:first', 'sent:second', 'cut:first', 'cut:second']);
      expect(listenersAdded).toEqual([1, 1]);
    } finally {
      server.close();
    }
  });

  it('runs a closer added once the answer is done at once (a client gone while the request waited)', async () => {
    const ran = Promise.withResolvers<string>();
    const server = createServer((_req, res) => {
      whenAnswerClosed(res, () => {});
      res.once('close', () => whenAnswerClosed(res, () => ran.resolve('late closer ran')));
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await ran.promise).toBe('late closer ran');
    } finally {
      server.close();
    }
  });
});
