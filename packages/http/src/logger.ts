import { createRequire } from 'node:module';
import { type DestinationStream, pino, type Logger } from 'pino';
import type pinoPretty from 'pino-pretty';

export type { Logger };

/**
 * Structured JSON logs, each line written to stdout as it is logged (a synchronous write): a line is
 * in the terminal, file or pipe before the call returns, so a SIGKILL or a crash right after loses
 * nothing. Services log no line per request, and faults are logged once per burst (`FaultLog`), so the
 * writes are few; the buffered destination this replaces held rare error lines for minutes (issue 15,
 * docs/decisions.md "Resilience"). Keys and tokens never reach a log line: the redaction list covers
 * every header and field that could carry one.
 */
export function createLogger(options: { service: string; level?: string; pretty?: boolean }): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'authorization',
          'value',
          'token',
          'secret',
          '*.value',
          '*.token',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    options.pretty ? prettyStream() : pino.destination({ dest: 1, sync: true }),
  );
}

/** Lines for a person at a terminal or in a log file (`LOG_FORMAT=pretty`, what `pnpm start` sets). */
export function prettyStream(): DestinationStream {
  // Loaded only here: a service logging JSON (production) never reads its 29 files.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof pinoPretty;
  return pretty({ sync: true, colorize: false, singleLine: true, translateTime: 'SYS:HH:MM:ss.l' });
}

/** A logger that writes nothing, for tests and tools. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
