import { describe, expect, it } from 'vitest';
import { listen } from './lifecycle.js';

describe('graceful close', () => {
  it('finishes in-flight requests and refuses new connections', async () => {
    let release: () => void = () => {};
    const server = await listen(
      (_req, res) => {
        release = () => res.end('done');
      },
      0,
      '127.0.0.1',
    );
    const inFlight = fetch(`http://127.0.0.1:${server.port}/slow`).then((res) => res.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(`http://127.0.0.1:${server.port}/new`)).rejects.toThrow();
    release();
    expect(await inFlight).toBe('done');
    await closing;
  });
});
