import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceBalancer } from './service-balancer.js';

/** A replica answering its name on every path, and /readyz as `ready` says. */
async function replica(name: string) {
  const state = { ready: true };
  const server: Server = createServer((req, res) => {
    if (req.url === '/readyz') res.writeHead(state.ready ? 200 : 503).end();
    else if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 100);
    } else res.end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, state, close };
}

const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
});

async function balancerOver(names: string[], options: { retry?: boolean; pollMs?: number } = {}) {
  const balancer = await ServiceBalancer.start({ pollMs: 20, ...options });
  const replicas = await Promise.all(names.map(replica));
  opened.push(balancer, ...replicas);
  for (const started of replicas) await balancer.add(started.url);
  return { balancer, replicas };
}

const answers = async (url: string, count: number) => {
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(await (await fetch(url)).text());
  return names;
};

describe('ServiceBalancer', () => {
  it('sends requests round robin to ready replicas only', async () => {
    const { balancer, replicas } = await balancerOver(['a', 'b']);
    expect(new Set(await answers(balancer.url, 4))).toEqual(new Set(['a', 'b']));
    replicas[0]!.state.ready = false;
    await expect.poll(() => answers(balancer.url, 4)).toEqual(['b', 'b', 'b', 'b']);
  });

  // These two look once, when the replicas are added: a replica closed after it is still taken for ready.
  it('answers 502 for a request whose replica is gone before its next look', async () => {
    const { balancer, replicas } = await balancerOver(['a', 'b'], { pollMs: 60_000 });
    await replicas[0]!.close();
    expect(new Set(await Promise.all([1, 2, 3, 4].map(async () => (await fetch(balancer.url)).status)))).toEqual(new Set([200, 502]));
  });

  it('with retry, sends a GET whose replica is gone to the next one, and answers 502 when none is ready', async () => {
    const { balancer, replicas } = await balancerOver(['a', 'b'], { retry: true, pollMs: 60_000 });
    await replicas[0]!.close();
    expect(await answers(balancer.url, 4)).toEqual(['b', 'b', 'b', 'b']);
    await replicas[1]!.close();
    expect((await fetch(balancer.url)).status).toBe(502);
  });

  it('streams an answer as it comes', async () => {
    const { balancer } = await balancerOver(['a']);
    const res = await fetch(`${balancer.url}/stream`);
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('data: one\n\n');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
  });
});
