import { statusFor, type ErrorCode } from './errors.js';

/** The one error every layer throws; the error handler turns it into the spec's envelope. */
export class AppError extends Error {
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { param?: string; cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.status = statusFor(code);
    this.param = options.param;
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what = 'resource') => new AppError('not_found', `No such ${what}.`);
