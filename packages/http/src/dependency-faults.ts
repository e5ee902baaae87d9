import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ErrorReply,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError as RedisTimeoutError,
} from '@redis/client';
import type { Logger } from './logger.js';

/**
 * A failure of something the service depends on (Postgres, Redis, the network), as opposed to a bug:
 * it is answered `503 service_unavailable` with `Retry-After`, and logged once per burst.
 */
export interface DependencyFault {
  /** `<dependency>:<what>`, e.g. `postgres:unreachable`, `redis:timeout`: the unit of log suppression. */
  kind: string;
  /** What `Retry-After` says: how soon trying again makes sense. */
  retryAfterSeconds: number;
}

type Source = 'postgres' | 'redis' | 'network';
type What = 'unreachable' | 'timeout' | 'overloaded' | 'read-only' | 'shutdown';

const RETRY_AFTER: Record<What, number> = { unreachable: 2, timeout: 2, overloaded: 5, 'read-only': 5, shutdown: 5 };

const fault = (source: Source, what: What): DependencyFault => ({ kind: `${source}:${what}`, retryAfterSeconds: RETRY_AFTER[what] });

/** Node's socket errors: the peer refused, reset or never answered. */
const NETWORK_CODES: Record<string, What> = {
  ECONNREFUSED: 'unreachable',
  ECONNRESET: 'unreachable',
  EPIPE: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ECONNABORTED: 'unreachable',
  ETIMEDOUT: 'timeout',
};

/** SQLSTATEs that say Postgres (not the statement) is the problem. */
function postgresState(code: string): What | null {
  // Connection exceptions, except 08P01 protocol_violation: our own query can cause that (too many
  // bind parameters), and a bug must stay a 500 with its stack.
  if (code.startsWith('08') && code !== '08P01') return 'unreachable';
  if (code.startsWith('53')) return 'overloaded'; // insufficient resources: 53300 too_many_connections, disk, memory
  switch (code) {
    case '57P01': // admin_shutdown
    case '57P02': // crash_shutdown
    case '57P03': // cannot_connect_now (starting up, recovering)
      return 'shutdown';
    case '57014': // query_canceled: statement_timeout
    case '25P03': // idle_in_transaction_session_timeout
    case '57P05': // idle_session_timeout
      return 'timeout';
    case '25006': // read_only_sql_transaction: a standby, or a primary during failover
      return 'read-only';
  }
  return null;
}

/** node-postgres's own messages for a connection that ended or never came, and its client-side timeout. */
function postgresMessage(message: string): What | null {
  if (message === 'timeout exceeded when trying to connect') return 'timeout'; // pool: connect or wait for a slot
  if (message === 'Query read timeout') return 'timeout'; // query_timeout: a frozen server
  if (message.startsWith('Connection terminated')) return 'unreachable'; // unexpectedly; due to connection timeout
  if (message === 'Client has encountered a connection error and is not queryable') return 'unreachable';
  return null;
}

/** Redis answers that mean "not now" rather than "wrong command". */
const REDIS_REPLY = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|OOM)\b/;

function classifyOne(err: object): DependencyFault | null {
  if (
    err instanceof ClientClosedError ||
    err instanceof ClientOfflineError ||
    err instanceof SocketClosedUnexpectedlyError ||
    err instanceof DisconnectsClientError ||
    err instanceof ReconnectStrategyError
  ) {
    return fault('redis', 'unreachable');
  }
  if (err instanceof ConnectionTimeoutError || err instanceof SocketTimeoutError || err instanceof RedisTimeoutError) {
    return fault('redis', 'timeout');
  }
  if (err instanceof ErrorReply) {
    const match = REDIS_REPLY.exec(err.message);
    if (!match) return null;
    return fault('redis', match[1] === 'OOM' ? 'overloaded' : match[1] === 'READONLY' ? 'read-only' : 'unreachable');
  }
  const { code, message, name, severity } = err as { code?: unknown; message?: unknown; name?: unknown; severity?: unknown };
  // Postgres errors carry a five-character SQLSTATE and a severity; Node's socket errors an E-code.
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') {
    const what = postgresState(code);
    return what ? fault('postgres', what) : null;
  }
  if (typeof code === 'string' && code in NETWORK_CODES) return fault('network', NETWORK_CODES[code]!);
  if (typeof message === 'string') {
    const what = postgresMessage(message);
    if (what) return fault('postgres', what);
  }
  // AbortSignal.timeout() and p-timeout: a wait on a dependency that ran out.
  if (name === 'TimeoutError') return fault('network', 'timeout');
  return null;
}

/**
 * Whether an error is a dependency fault, looking through `cause` chains and `AggregateError`s (a
 * refused connection to `localhost` is one per address tried). Anything else is a bug: `null`.
 */
export function classifyDependencyFault(err: unknown): DependencyFault | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && seen.size < 16) {
    const next = queue.shift();
    if (!next || typeof next !== 'object' || seen.has(next)) continue;
    seen.add(next);
    const found = classifyOne(next);
    if (found) return found;
    const { cause, errors } = next as { cause?: unknown; errors?: unknown };
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return null;
}

/**
 * A fault's error, short, instead of a stack: its messages down the `cause` chain ("fetch failed:
 * connect ECONNREFUSED 127.0.0.1:8082") and the first code on the way.
 */
export function describeFault(err: unknown): { message: string; code?: string } {
  const messages: string[] = [];
  let code: string | undefined;
  const seen = new Set<unknown>();
  for (let at = err; at && typeof at === 'object' && !seen.has(at) && messages.length < 4; at = (at as { cause?: unknown }).cause) {
    seen.add(at);
    const { message, code: own, errors } = at as { message?: unknown; code?: unknown; errors?: unknown };
    if (typeof message === 'string' && message) messages.push(message);
    else if (Array.isArray(errors) && errors[0] instanceof Error) messages.push(errors[0].message);
    if (code === undefined && typeof own === 'string') code = own;
  }
  if (messages.length === 0) messages.push(String(err));
  return { message: messages.join(': '), ...(code === undefined ? {} : { code }) };
}

export interface FaultLogOptions {
  /** The summary interval: one line per kind, then one summary line per interval if more came. */
  intervalMs?: number;
}

/**
 * Logs a burst of one kind of fault once, not once per request: the first occurrence at warn (with
 * whatever the caller adds, such as the request id), the others counted; at the end of the interval
 * one line "N more <kind> in the last 10 s" if there were any, and the next occurrence after that
 * starts a new interval. A dependency down for a minute under load writes about a dozen lines.
 */
export class FaultLog {
  private readonly intervalMs: number;
  private readonly windows = new Map<string, { suppressed: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly logger: Logger,
    options: FaultLogOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 10_000;
  }

  /** Records one occurrence of `kind`; `log` (a request's child logger) writes the first line. */
  note(kind: string, fields: Record<string, unknown>, message: string, log: Logger = this.logger): void {
    const open = this.windows.get(kind);
    if (open) {
      open.suppressed++;
      return;
    }
    log.warn({ kind, ...fields }, message);
    const window = {
      suppressed: 0,
      timer: setTimeout(() => {
        this.windows.delete(kind);
        if (window.suppressed > 0) {
          const seconds = Math.round(this.intervalMs / 100) / 10;
          this.logger.warn({ kind, count: window.suppressed }, `${window.suppressed} more ${kind} in the last ${seconds} s`);
        }
      }, this.intervalMs),
    };
    window.timer.unref();
    this.windows.set(kind, window);
  }

  /** Writes the pending summaries now (on shutdown). */
  flush(): void {
    for (const [kind, window] of this.windows) {
      clearTimeout(window.timer);
      if (window.suppressed > 0) this.logger.warn({ kind, count: window.suppressed }, `${window.suppressed} more ${kind} before shutdown`);
    }
    this.windows.clear();
  }
}
