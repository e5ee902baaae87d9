import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Registry } from 'prom-client';
import { poolStats, type Db, type PoolStats } from '@partner/db';
import { LabelledHistogram } from './histogram.js';
import { collectProcessMetrics } from './process-metrics.js';

/** Seconds: from a cached answer (a millisecond) to the request deadline (8 s) and past it. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A route the service does not know: one label for every such path, so no path becomes a series. */
export const UNMATCHED_ROUTE = 'unmatched';

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
const statusClass = (status: number) => STATUS_CLASSES[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`;

/**
 * One service's Prometheus metrics (prom-client), in a registry of its own labelled with the service:
 * requests by route template, method and status class; Node's process metrics and event-loop lag
 * (collectProcessMetrics); the database pool. Label values are bounded sets (templates, never paths
 * or ids). A service adds what only it knows with `registers: [metrics.registry]`.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly duration: LabelledHistogram;
  private readonly errors: Counter<'code'>;

  constructor(service: string, options: { db?: Db } = {}) {
    this.registry.setDefaultLabels({ service });
    collectProcessMetrics(this.registry);
    // Requests are counted by the histogram's `_count`: a counter beside it would cost each request as
    // much again.
    this.duration = new LabelledHistogram(
      'http_request_duration_seconds',
      'Time from a request’s arrival to the end of its answer.',
      ['route', 'method', 'status_class'],
      LATENCY_BUCKETS,
      this.registry,
    );
    this.errors = new Counter({
      name: 'http_errors_total',
      help: 'Error answers by their code (invalid_api_key, rate_limited, quota_exceeded, service_unavailable...).',
      labelNames: ['code'],
      registers: [this.registry],
    });
    if (options.db) this.watchPool(options.db);
  }

  /** A request answered (or abandoned by its client), under its route template; `code` for an error answer. */
  observeRequest(route: string, method: string, status: number, seconds: number, code?: string): void {
    this.duration.observe([route, method, statusClass(status)], seconds);
    if (code) this.errors.inc({ code });
  }

  private watchPool(db: Db): void {
    const read = () => poolStats(db);
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections open, by state.',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const stats = read();
        if (!stats) return;
        this.set({ state: 'busy' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    const single = (name: string, help: string, pick: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = read();
          this.set(stats ? pick(stats) : 0);
        },
      });
    single('db_pool_waiting', 'Queries waiting for a database connection (the pool is at its maximum).', (stats) => stats.waiting);
    single('db_pool_max', 'The most database connections the pool opens (DATABASE_POOL_MAX).', (stats) => stats.max);
  }
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own (`METRICS_PORT`): Prometheus scrapes it inside the cluster, and the
 * gateway, which serves only its own port, can never expose it.
 */
export async function startMetricsServer(metrics: ServiceMetrics, port: number, host: string): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed.\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** `startWith`'s `metrics` part: the registry on its port, or nothing when the service keeps none. */
export const servedMetrics = (registry: ServiceMetrics | undefined, at: { port: number; host: string } | null) =>
  registry && at ? { registry, ...at } : undefined;
