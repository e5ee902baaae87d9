import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs written asynchronously (no synchronous write per request). Keys and tokens
 * never reach a log line: the redaction list covers every header and field that could carry one.
 */
export function createLogger(options: { service: string; level?: string }): Logger {
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
    pino.destination({ sync: false, minLength: 4096 }),
  );
}

/** A logger that writes nothing, for tests and tools. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
