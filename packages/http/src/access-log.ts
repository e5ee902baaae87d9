import { pino } from 'pino';
import { isRequestId } from './ids.js';
import { prettyStream } from './logger.js';

/** Who made a request, as far as the service knows it: never the key itself. */
export interface Caller {
  keyId?: string;
  /** `restaurant:rst_...` or `integrator:org_...`. */
  owner?: string;
  restaurantId?: string;
}

/** One answered request, as its access line tells it (with its caller, when known). */
export interface AnsweredRequest {
  /** Ours: `req_` and letters and digits (newRequestId, or the gateway's as requestContext checks it). */
  requestId: string;
  method: string;
  route: string;
  status: number;
  /** Written to a tenth of a millisecond. */
  durationMs: number;
}

/** What receives the lines: stdout through a batch, a pretty printer, a test's array. */
export interface LineSink {
  write(line: string): unknown;
  flush?(): void;
}

const ACCESS_LEVEL = pino.levels.values.info!;
const quote = JSON.stringify;
/** How many values `quoted` keeps: far more than routes, methods and active keys, but bounded. */
const QUOTED_KEPT = 10_000;

/**
 * One line per request (`msg: "request"`): request id, method, route template, status, duration, and
 * the calling key's id, owner and restaurant (never the key). Every answer of 400 or more is written;
 * successful ones at `successSample` (1: all, 0.1: one in ten, 0: none).
 *
 * The line is pino's (`level`, `time`, `service`, ..., `msg`), built from a template: pino's generic
 * serialiser cost 1.5 µs a line against 0.6 µs (docs/benchmarks.md, "Observability overhead"). Lines
 * leave through a sink of their own, gathered for up to 50 ms and written at once: the service
 * logger writes each line as it comes so that a rare error line survives a crash, which for a line per
 * request would be a system call per request. An access line lost to a SIGKILL is a lesser loss;
 * `flush` writes what is pending on shutdown.
 */
export class AccessLog {
  private readonly serviceField: string;
  /** Values of our own making that recur from line to line (routes, methods, keys, owners) as JSON strings. */
  private readonly quotedValues = new Map<string, string>();

  constructor(
    private readonly sink: LineSink | null,
    service: string,
    private readonly successSample: number,
    private readonly random: () => number = Math.random,
  ) {
    this.serviceField = `,"service":${quote(service)}`;
  }

  /**
   * Below `info` (`LOG_LEVEL=warn`, as the benchmarks run) no access line is written. `fd`: where JSON
   * lines go (stdout; a benchmark's /dev/null).
   */
  static create(options: { service: string; level: string; successSample: number; pretty: boolean; fd?: number }): AccessLog {
    const writes = (pino.levels.values[options.level] ?? Infinity) <= ACCESS_LEVEL;
    const sink = !writes
      ? null
      : options.pretty
        ? prettyStream()
        : new LineBatch(pino.destination({ dest: options.fd ?? 1, sync: true, contentMode: 'buffer' }) as unknown as ByteDestination);
    return new AccessLog(sink, options.service, options.successSample);
  }

  /** Whether any line is written at all (not below the `info` level). */
  get writes(): boolean {
    return this.sink !== null;
  }

  /** Whether an answer of this status gets a line: always from 400 on, else as sampled. */
  takes(status: number): boolean {
    return this.sink !== null && (status >= 400 || (this.successSample > 0 && this.random() < this.successSample));
  }

  /** The line of an answer `takes` chose. */
  write(answered: AnsweredRequest, caller?: Readonly<Caller>): void {
    let line = `{"level":${ACCESS_LEVEL},"time":${Date.now()}${this.serviceField},"requestId":${requestIdJson(answered.requestId)},"method":${this.quoted(answered.method)},"route":${this.quoted(answered.route)},"status":${answered.status},"durationMs":${tenths(answered.durationMs)}`;
    if (caller?.keyId !== undefined) line += `,"keyId":${this.quoted(caller.keyId)}`;
    if (caller?.owner !== undefined) line += `,"owner":${this.quoted(caller.owner)}`;
    // Not kept: at the gateway it is the request path's id, whatever a caller sends.
    if (caller?.restaurantId !== undefined) line += `,"restaurantId":${quote(caller.restaurantId)}`;
    this.sink?.write(`${line},"msg":"request"}\n`);
  }

  /** A recurring value as a JSON string, escaped once: a map lookup instead of JSON.stringify each line. */
  private quoted(value: string): string {
    let json = this.quotedValues.get(value);
    if (json === undefined) {
      json = quote(value);
      if (this.quotedValues.size < QUOTED_KEPT) this.quotedValues.set(value, json);
    }
    return json;
  }

  flush(): void {
    this.sink?.flush?.();
  }
}

/** A request id as JSON: quoted as it is (JSON.stringify costs twice the check), escaped if ever it must be. */
const requestIdJson = (id: string): string => (isRequestId(id) ? `"${id}"` : quote(id));

/**
 * Milliseconds to one decimal from two small integers: V8 writes a fraction (`Math.round(ms * 10) / 10`)
 * by its shortest-digits algorithm, 80-130 ns against 30 (timed on Node 24). A duration is never
 * negative; anything but a plain one is written as a number all the same.
 */
function tenths(ms: number): string {
  if (!(ms >= 0 && ms < 1e12)) return String(Math.max(0, ms) || 0);
  const total = Math.round(ms * 10);
  return `${Math.trunc(total / 10)}.${total % 10}`;
}

/** Where batches go: SonicBoom in `contentMode: 'buffer'` (its declared types name strings only). */
interface ByteDestination {
  write(bytes: Buffer): unknown;
  on(event: 'error', listener: () => void): unknown;
}

/** A batch's size: past it, a batch leaves at once. */
const BATCH_BYTES = 64 * 1024;
/** A batch leaves at the latest this long after its first line. */
const MAX_BATCH_DELAY_MS = 50;

/**
 * Lines gathered for up to 50 ms or 64 KB, then handed to `out` in one write: a write costs more than
 * formatting a line (4.2 µs a line written one by one; docs/benchmarks.md). Each line is copied into
 * the batch's bytes as it comes, so that its string dies young: strings kept for the batch's 50 ms
 * outlived the young generation, and the collector's extra work cost more than their formatting
 * (profiled; docs/benchmarks.md). The write is synchronous: an asynchronous one costs the process as
 * much CPU and could be overtaken by shutdown's flush, putting a later line before earlier ones.
 */
class LineBatch implements LineSink {
  private readonly bytes = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly out: ByteDestination) {
    // A stdout that is gone (EPIPE) loses access lines; unheard, its error would end the process.
    out.on('error', () => {});
  }

  write(line: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    if (this.used + line.length * 3 > BATCH_BYTES) this.flush();
    if (line.length * 3 > BATCH_BYTES) {
      this.out.write(Buffer.from(line));
      return;
    }
    this.used += this.bytes.write(line, this.used);
    // Unreferenced: pending lines never keep a stopping process alive (shutdown flushes them).
    this.timer ??= setTimeout(this.flushPending, MAX_BATCH_DELAY_MS).unref();
  }

  private readonly flushPending = (): void => {
    this.timer = null;
    if (this.used === 0) return;
    // A copy: the batch's bytes are filled again while the destination may still hold what it was given.
    this.out.write(Buffer.from(this.bytes.subarray(0, this.used)));
    this.used = 0;
  };

  /** Everything pending, written out before this returns (shutdown). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.flushPending();
  }
}
