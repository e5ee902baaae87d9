import { describe, expect, it } from 'vitest';
import { listen } from './lifecycle.js';

describe('graceful close', () => {
  it('finishes in-flight requests and refuses new connections', async () => {
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const server = await listen(
      (_req, res) => {
        release = () => res.end('done');
        arrived();
      },
      0,
      '127.0.0.1',
    );
    const inFlight = fetch(`http://127.0.0.1:${server.port}/slow`).then((res) => res.text());
    // Closing starts once the request is in the handler (a sleep here was too short on a loaded machine).
    await received;
    const closing = server.close();
    await expect(fetch(`http://127.0.0.1:${server.port}/new`)).rejects.toThrow();
    release();
    expect(await inFlight).toBe('done');
    await closing;
  });
});
