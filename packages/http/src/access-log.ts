import { pino, type DestinationStream, type Logger } from 'pino';
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
 * Its own logger, buffered: a line per request written straight to stdout would cost a system call per
 * request, where the service logger writes synchronously so that a rare error line survives a crash. An
 * access line lost to a SIGKILL is a lesser loss; `flush` writes what is pending on shutdown.
 */
export class AccessLog {
  constructor(
    private readonly logger: Logger,
    private readonly successSample: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** Below `info` (`LOG_LEVEL=warn`, as the benchmarks run) no access line is written. */
  static create(options: { service: string; level: string; successSample: number; pretty: boolean }): AccessLog {
    const destination: DestinationStream = options.pretty
      ? prettyStream()
      : pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
    return new AccessLog(pino({ level: options.level, base: { service: options.service } }, destination), options.successSample);
  }

  write(answered: AnsweredRequest): void {
    if (answered.status < 400 && (this.successSample <= 0 || this.random() >= this.successSample)) return;
    this.logger.info(answered, 'request');
  }

  flush(): void {
    this.logger.flush();
  }
}
