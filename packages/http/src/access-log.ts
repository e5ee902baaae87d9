import { pino, type Logger } from 'pino';
import { prettyStream } from './logger.js';

/** Who made a request, as far as the service knows it: never the key itself. */
export interface Caller {
  keyId?: string;
  /** `restaurant:rst_...` or `integrator:org_...`. */
  owner?: string;
  restaurantId?: string;
}

/** One answered request, as its access line tells it. */
export interface AnsweredRequest extends Caller {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

/**
 * One line per request (`msg: "request"`): request id, method, route template, status, duration, and
 * the calling key's id, owner and restaurant (never the key). Every answer of 400 or more is written;
 * successful ones at `successSample` (1: all, 0.1: one in ten, 0: none).
 *
 * Its own logger, whose lines are gathered over an event-loop turn and leave in one write: the service
 * logger writes each line as it comes so that a rare error line survives a crash, which for a line per
 * request would be a system call per request. An access line lost to a SIGKILL is a lesser loss;
 * `flush` writes what is pending on shutdown.
 */
export class AccessLog {
  constructor(
    private readonly logger: Logger,
    private readonly successSample: number,
    private readonly random: () => number = Math.random,
    private readonly out?: { flush(): void },
  ) {}

  /** Below `info` (`LOG_LEVEL=warn`, as the benchmarks run) no access line is written. */
  static create(options: { service: string; level: string; successSample: number; pretty: boolean }): AccessLog {
    const out = options.pretty ? null : new TurnBatch(pino.destination({ dest: 1, sync: true }));
    const logger = pino({ level: options.level, base: { service: options.service } }, out ?? prettyStream());
    return new AccessLog(logger, options.successSample, Math.random, out ?? undefined);
  }

  /** Whether an answer of this status gets a line: always from 400 on, else as sampled. */
  takes(status: number): boolean {
    return status >= 400 || (this.successSample > 0 && this.random() < this.successSample);
  }

  /** The line of an answer `takes` chose. */
  write(answered: AnsweredRequest): void {
    this.logger.info(answered, 'request');
  }

  flush(): void {
    this.out?.flush();
    this.logger.flush();
  }
}

/** Past this many characters a batch leaves at once, whatever the turn. */
const MAX_BATCH_CHARS = 64 * 1024;

/**
 * Lines gathered until the event loop turns, then handed to `out` in one write: a write to the
 * destination costs about as much as formatting a line (measured: 4.2 µs a line written one by one,
 * 1.6 to 2.2 µs in batches; docs/benchmarks.md). The write is synchronous: an asynchronous one costs
 * the process as much CPU (measured: 3.3 to 4.3 µs a turn either way) and could be overtaken by
 * shutdown's flush, putting a later line before earlier ones.
 */
class TurnBatch {
  private pending = '';
  private scheduled = false;

  constructor(private readonly out: ReturnType<typeof pino.destination>) {
    // A stdout that is gone (EPIPE) loses access lines; unheard, its error would end the process.
    out.on('error', () => {});
  }

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= MAX_BATCH_CHARS) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushPending);
    }
  }

  private readonly flushPending = (): void => {
    this.scheduled = false;
    if (this.pending) this.writeOut();
  };

  /** Everything pending, written out before this returns (shutdown). */
  flush(): void {
    if (this.pending) this.writeOut();
  }

  private writeOut(): void {
    this.out.write(this.pending);
    this.pending = '';
  }
}
