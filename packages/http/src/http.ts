import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { ZodError, type z } from 'zod';
import { AppError, type TErrorBody } from '@partner/contracts';
import { newRequestId } from './ids.js';
import type { Logger } from './logger.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
      log: Logger;
    }
  }
}

/**
 * Takes the request id the gateway assigned (services sit behind it) or makes one, puts it on the
 * response and on a per-request child logger.
 */
export function requestContext(logger: Logger, options: { trustIncomingId: boolean }): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    req.requestId =
      options.trustIncomingId && typeof incoming === 'string' && /^req_[A-Za-z0-9]{8,64}$/.test(incoming) ? incoming : newRequestId();
    req.log = logger.child({ requestId: req.requestId });
    res.setHeader('X-Request-Id', req.requestId);
    next();
  };
}

export function errorBody(code: string, message: string, requestId: string, param?: string): TErrorBody {
  return { error: { code, message, requestId, ...(param ? { param } : {}) } };
}

export function sendError(res: express.Response, requestId: string, error: AppError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  // A route may have set another content type (a file it was about to send) before failing.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.removeHeader('Content-Length');
  res.status(error.status).json(errorBody(error.code, error.message, requestId, error.param));
}

/** Body-parser and friends throw http-errors with a `type`; map the ones a client can cause. */
function fromHttpError(err: { type?: string; status?: number; message?: string }): AppError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError('invalid_request', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new AppError('payload_too_large', 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'The request body encoding is not supported.');
    case 'request.aborted':
      return new AppError('invalid_request', 'The request was aborted.');
  }
  if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
    return new AppError('invalid_request', err.message ?? 'Bad request.');
  }
  return null;
}

export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return fromZodError(err);
  if (err && typeof err === 'object') return fromHttpError(err);
  return null;
}

/** One handler per service: AppError, zod errors, body-parser errors and the unexpected, all enveloped. */
export function errorHandler(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = req.requestId ?? newRequestId();
    const known = toAppError(err);
    if (known) {
      if (known.status >= 500) req.log?.error({ err, code: known.code }, 'request failed');
      return sendError(res, requestId, known);
    }
    req.log?.error({ err }, 'unhandled error');
    if (res.headersSent) return res.destroy();
    sendError(res, requestId, new AppError('internal_error', 'Something went wrong on our side. Quote the request id to support.'));
  };
}

export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => next(new AppError('not_found', `No route for ${req.method} ${req.path}.`));
}

export function fromZodError(error: ZodError, location?: 'query' | 'body' | 'params'): AppError {
  const issue = error.issues[0];
  const param = issue?.path.length ? issue.path.join('.') : undefined;
  const where = param ? `${param}: ` : location === 'body' ? 'body: ' : '';
  const message =
    issue?.code === 'unrecognized_keys'
      ? `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`
      : `${where}${issue?.message ?? 'invalid input'}.`;
  return new AppError('invalid_request', message, {
    param: issue?.code === 'unrecognized_keys' ? issue.keys[0] : param,
  });
}

export function parseWith<T extends z.ZodType>(schema: T, input: unknown, location: 'query' | 'body' | 'params'): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw fromZodError(result.error, location);
  return result.data;
}

/**
 * JSON bodies: a body with another content type (multipart aside) is 415, malformed JSON 400, too large 413, all
 * in the envelope. Requests without a body pass through with `req.body` undefined.
 */
export function jsonBody(options: { limit: number }): RequestHandler {
  const parse = express.json({ limit: options.limit, strict: false });
  return (req, res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return next();
    // Multipart bodies are streamed by the routes that take files; JSON routes then see no body.
    if (req.is('multipart/form-data')) return next();
    if (!req.is('application/json')) {
      return next(new AppError('unsupported_media_type', 'Send the request body as application/json.'));
    }
    parse(req, res, next);
  };
}
