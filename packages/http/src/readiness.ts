import type { RequestListener, ServerResponse } from 'node:http';
import { classifyDependencyFault, describeFault, FaultLog } from './dependency-faults.js';
import type { Logger } from './logger.js';

/** One thing a service needs in order to serve: the probe resolves when it is usable now. */
export interface ReadinessCheck {
  /** The key in `/readyz`'s `checks`: `postgres`, `redis`, `storage`, an upstream's name. */
  name: string;
  /** Given the signal the deadline aborts, for probes that can stop early (an HTTP call). */
  probe: (signal: AbortSignal) => Promise<unknown>;
  /**
   * false: a failure is reported (status `degraded`) but leaves the instance ready. For what the service
   * has a fallback for, or what every replica shares and cannot fix by itself: turning them all unready
   * at once turns a partial outage into a whole one.
   */
  required?: boolean;
}

export type ReadinessStatus = 'ready' | 'degraded' | 'unready' | 'draining';

export interface ReadinessReport {
  status: ReadinessStatus;
  /** Per check: `ok`, `timeout after N ms`, or one word for the failure (never a host, a URL or a message). */
  checks?: Record<string, string>;
}

/** A probe's failure whose message is safe to show in `/readyz` (it names no host and no secret). */
export class ProbeFailure extends Error {}

/**
 * A report is reused this long, and one run serves every probe that arrives meanwhile: the gateway's
 * `/readyz` is reachable from outside, and each run queries Postgres, Redis and the upstreams.
 */
const REUSE_MS = 1_000;
/** What an unready instance's 503 says in Retry-After: about the period of a readiness probe. */
const RETRY_AFTER_SECONDS = 5;

/**
 * What `/readyz` answers: every check in parallel, each within its deadline; unready when a required
 * one fails; draining from the moment shutdown begins (the checks no longer run then).
 */
export class Readiness {
  private draining = false;
  private running: Promise<ReadinessReport> | null = null;
  private last: { at: number; report: ReadinessReport } | null = null;
  private readonly faults: FaultLog;

  constructor(private readonly options: { checks: ReadinessCheck[]; timeoutMs: number; logger: Logger }) {
    this.faults = new FaultLog(options.logger);
  }

  /** From now on the instance is unready for good: load balancers stop sending it new requests. */
  drain(): void {
    this.draining = true;
    this.faults.flush();
  }

  async report(): Promise<ReadinessReport> {
    if (this.draining) return { status: 'draining' };
    if (this.last && performance.now() - this.last.at < REUSE_MS) return this.last.report;
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private async run(): Promise<ReadinessReport> {
    const { checks } = this.options;
    const outcomes = await Promise.all(checks.map((check) => this.runCheck(check)));
    const failed = checks.filter((_check, index) => outcomes[index] !== 'ok');
    const status: ReadinessStatus =
      failed.length === 0 ? 'ready' : failed.some((check) => check.required !== false) ? 'unready' : 'degraded';
    const report: ReadinessReport = { status, checks: Object.fromEntries(checks.map((check, index) => [check.name, outcomes[index]!])) };
    this.last = { at: performance.now(), report };
    return report;
  }

  private async runCheck(check: ReadinessCheck): Promise<string> {
    const { timeoutMs } = this.options;
    const deadline = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      // A probe still running at its deadline settles later, unobserved: the race holds its rejection.
      const outcome = await Promise.race([check.probe(deadline.signal).then(() => 'ok' as const), timedOut]);
      if (outcome === 'ok') return 'ok';
      deadline.abort();
      this.faults.note(`readiness:${check.name}`, { timeoutMs }, `readiness check ${check.name} timed out`);
      return `timeout after ${timeoutMs} ms`;
    } catch (err) {
      // The log has what the answer leaves out: messages, addresses, codes.
      this.faults.note(`readiness:${check.name}`, { fault: describeFault(err) }, `readiness check ${check.name} failed`);
      return failureWord(err);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `unreachable`, `timeout`, `overloaded`...; a probe's own safe message; else the error code alone. */
function failureWord(err: unknown): string {
  if (err instanceof ProbeFailure) return err.message;
  const fault = classifyDependencyFault(err);
  if (fault) return fault.kind.slice(fault.kind.indexOf(':') + 1);
  const { code } = err as { code?: unknown };
  return typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? `failed (${code})` : 'failed';
}

async function answerReadiness(readiness: Readiness, res: ServerResponse): Promise<void> {
  const report = await readiness.report();
  const ready = report.status === 'ready' || report.status === 'degraded';
  res.writeHead(ready ? 200 : 503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(report.status === 'unready' ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : {}),
  });
  res.end(JSON.stringify(report));
}

/**
 * `GET /readyz` ahead of the app, before its guard and its routes: the orchestrator's probe carries no
 * credentials, and a draining instance answers it without running the app at all.
 */
export function withReadinessRoute(readiness: Readiness, app: RequestListener): RequestListener {
  return (req, res) => {
    if (req.url === '/readyz' && req.method === 'GET') {
      answerReadiness(readiness, res).catch(() => res.destroy());
      return;
    }
    app(req, res);
  };
}
