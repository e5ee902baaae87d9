import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a Kubernetes Service (or, with `retry`, an ingress) does for the replicas behind it, on one
 * machine: requests go round robin to the replicas whose `/readyz` answered 200 at the last look (every
 * `pollMs`), so a replica that turns unready to drain gets no new requests. A request whose connection
 * fails is answered 502, which the checks using this count as a failure; with `retry`, as
 * ingress-nginx's `proxy_next_upstream error` does, a GET or HEAD that failed before any answer (a
 * replica gone between two looks, a keep-alive socket closed under it) goes to the next ready replica
 * instead. Bodies stream both ways (SSE included).
 */
/** A replica whose /readyz takes longer than this counts as not ready, as a probe's timeoutSeconds. */
const LOOK_TIMEOUT_MS = 1000;

export class ServiceBalancer {
  private readonly replicas = new Map<string, { ready: boolean }>();
  private readonly agent = new Agent({ keepAlive: true });
  private readonly server = createServer((req, res) => this.forward(req, res));
  private next = 0;
  private poll: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(
    private readonly pollMs: number,
    private readonly retry: boolean,
  ) {}

  /** Listening on a free port of 127.0.0.1, with no replica yet. */
  static async start(options: { pollMs?: number; retry?: boolean } = {}): Promise<ServiceBalancer> {
    const balancer = new ServiceBalancer(options.pollMs ?? 100, options.retry ?? false);
    await new Promise<void>((resolve) => balancer.server.listen(0, '127.0.0.1', resolve));
    balancer.lookAgainLater();
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A replica by its base URL; it takes requests once its /readyz has answered 200. */
  async add(replicaUrl: string): Promise<void> {
    this.replicas.set(replicaUrl, { ready: false });
    await this.look();
  }

  remove(replicaUrl: string): void {
    this.replicas.delete(replicaUrl);
  }

  /** Resolves once every replica added is ready (a started service finishing its start). */
  async whenAllReady(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ([...this.replicas.values()].some((replica) => !replica.ready)) {
      if (Date.now() > deadline) throw new Error(`replicas not ready within ${timeoutMs} ms: ${[...this.replicas.keys()].join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearTimeout(this.poll);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  /** Looks are never under way twice at once: a slow one must not land after a newer one. */
  private lookAgainLater(): void {
    this.poll = setTimeout(() => {
      void this.look().finally(() => {
        if (!this.closed) this.lookAgainLater();
      });
    }, this.pollMs);
  }

  private async look(): Promise<void> {
    await Promise.all(
      [...this.replicas].map(async ([url, replica]) => {
        const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(LOOK_TIMEOUT_MS) })
          .then(async (res) => (await res.arrayBuffer(), res.status === 200))
          .catch(() => false);
        replica.ready = ready;
      }),
    );
  }

  private pick(excluded: ReadonlySet<string>): string | null {
    const ready = [...this.replicas].filter(([url, replica]) => replica.ready && !excluded.has(url)).map(([url]) => url);
    if (ready.length === 0) return null;
    return ready[this.next++ % ready.length]!;
  }

  private forward(req: IncomingMessage, res: ServerResponse, tried = new Set<string>()): void {
    const target = this.pick(tried);
    if (!target) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('no ready replica');
      return;
    }
    tried.add(target);
    const { hostname, port } = new URL(target);
    const upstream = request({ hostname, port, method: req.method, path: req.url, headers: req.headers, agent: this.agent }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      const retryable = this.retry && (req.method === 'GET' || req.method === 'HEAD') && !res.headersSent;
      if (retryable) this.forward(req, res, tried);
      else if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream failed');
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (req.method === 'GET' || req.method === 'HEAD') upstream.end();
    else req.pipe(upstream);
  }
}
