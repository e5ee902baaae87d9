import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { ZodError, type z } from 'zod';
import { AppError, type TErrorBody } from '@partner/contracts';
import { whenAnswerClosed } from './answer-closed.js';
import { isRequestId, newRequestId } from './ids.js';
import { classifyDependencyFault, describeFault, FaultLog } from './dependency-faults.js';
import { silentLogger, type Logger } from './logger.js';

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
    req.requestId = options.trustIncomingId && typeof incoming === 'string' && isRequestId(incoming) ? incoming : newRequestId();
    req.log = logger.child({ requestId: req.requestId });
    res.setHeader('X-Request-Id', req.requestId);
    next();
  };
}

export function errorBody(code: string, message: string, requestId: string, param?: string): TErrorBody {
  return { error: { code, message, requestId, ...(param ? { param } : {}) } };
}

/** A JSON answer in one write, from express or a bare `node:http` handler alike. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** `sendJson` for a body already written as JSON. */
export function sendJsonText(res: ServerResponse, status: number, json: string): void {
  res.statusCode = status;
  // A route may have set another content type (a file it was about to send) before failing.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/** The error code each answer went out with, for the metrics (`http_errors_total`). */
const answeredCodes = new WeakMap<ServerResponse, string>();
export const answeredErrorCode = (res: ServerResponse): string | undefined => answeredCodes.get(res);

export function sendError(res: ServerResponse, requestId: string, error: AppError): void {
  answeredCodes.set(res, error.code);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  sendJson(res, error.status, errorBody(error.code, error.message, requestId, error.param));
}

/** What an answer needs of the request it answers, whether express or a bare handler received it. */
export interface RequestFacts {
  method: string;
  path: string;
  requestId: string;
  /** The request's logger (a child with its request id), made only when something is logged. */
  log: () => Logger | undefined;
}

/** `REQUEST_DEADLINE_MS` unless configured. */
export const DEFAULT_REQUEST_DEADLINE_MS = 8000;

/** Responses the deadline answered. A set rather than a property, so no response changes shape. */
const answeredByDeadline = new WeakSet<ServerResponse>();

/** Whether this response was the deadline's 503: the route's own answer, arriving later, goes nowhere. */
export const deadlinePassed = (res: ServerResponse): boolean => answeredByDeadline.has(res);

/** A multipart upload (a body announced, of that type), whose clock starts once its body is in. */
const isUpload = (req: IncomingMessage): boolean =>
  (req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined) &&
  /^multipart\/form-data\s*(?:;|$)/i.test(req.headers['content-type'] ?? '');

/**
 * Every request is answered within `ms`: a route still working by then (a dependency slower than its
 * own timeouts add up to) gets `503 service_unavailable` with `Retry-After` in its stead. A response
 * whose headers are out (an event stream, a file) is long-lived by design and left alone. A multipart
 * upload's clock starts once its body has arrived: its length is the client's line, not our
 * dependencies. The route keeps running after the 503 (nothing cancels it); its late answer is dropped.
 */
export function watchDeadline(
  req: IncomingMessage,
  res: ServerResponse,
  facts: RequestFacts,
  options: { ms: number; faults: FaultLog },
): void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => {
      if (res.headersSent || res.writableEnded) return;
      answeredByDeadline.add(res);
      // The route's later writes fail on a finished response; they must not crash the process.
      res.on('error', () => {});
      const where = { method: facts.method, path: facts.path, deadlineMs: options.ms };
      options.faults.note('request:deadline', where, 'request deadline passed', facts.log());
      sendError(
        res,
        facts.requestId,
        new AppError('service_unavailable', 'The request could not be served in time. Retry shortly.', { headers: { 'Retry-After': '2' } }),
      );
    }, options.ms);
    timer.unref();
  };
  whenAnswerClosed(res, () => clearTimeout(timer));
  if (isUpload(req)) req.once('end', arm);
  else arm();
}

const factsOf = (req: express.Request): RequestFacts => ({
  method: req.method,
  path: req.path,
  requestId: req.requestId ?? newRequestId(),
  log: () => req.log,
});

/** `watchDeadline` for every request of an express app. */
export function requestDeadline(options: { ms: number; faults: FaultLog }): RequestHandler {
  return (req, res, next) => {
    watchDeadline(req, res, factsOf(req), options);
    next();
  };
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
  if (err && typeof err === 'object') return fromHttpError(err) ?? fromUnstorableText(err);
  return null;
}

/**
 * Postgres refuses a NUL character (U+0000) in text and JSON: 22021 for a text parameter, 22P05 for
 * `\u0000` in jsonb. Only a client puts one there (in a path, a query or a body string), so whichever
 * value a route did not check for it is still the client's to fix, not a 500.
 */
function fromUnstorableText(err: { code?: unknown; severity?: unknown }): AppError | null {
  if (typeof err.severity !== 'string' || (err.code !== '22021' && err.code !== '22P05')) return null;
  return new AppError('invalid_request', 'The request carries a NUL character (U+0000), which no value here may contain.');
}

/**
 * One answer per failure, in every service: AppError, zod errors, body-parser errors, dependency
 * faults and the unexpected, all enveloped. A dependency fault (Postgres or Redis refusing,
 * resetting, timing out, full, read-only or shutting down; docs/decisions.md, "Resilience") is
 * `503 service_unavailable` with `Retry-After`, logged once per burst of its kind through `faults`;
 * anything else unknown is a bug: `500 internal_error`, logged with its stack.
 */
export function answerError(err: unknown, facts: RequestFacts, res: ServerResponse, faults: FaultLog): void {
  // The request deadline answered already; this is the route's late answer (or its failure).
  if (deadlinePassed(res)) {
    facts.log()?.debug({ fault: describeFault(err) }, 'dropped an answer that came after the request deadline');
    return;
  }
  const known = toAppError(err);
  const fault = known ? (known.status === 503 ? classifyDependencyFault(known.cause) : null) : classifyDependencyFault(err);
  if (known?.status === 503 || fault) {
    const kind = fault?.kind ?? `service_unavailable:${known!.message}`;
    const where = { method: facts.method, path: facts.path };
    faults.note(kind, { ...where, fault: describeFault(known?.cause ?? err) }, known ? known.message : 'dependency fault', facts.log());
    if (res.headersSent) return void res.destroy();
    const unavailable =
      known ?? new AppError('service_unavailable', 'A service this request needs is briefly unavailable. Retry shortly.', { cause: err });
    if (unavailable.headers['Retry-After'] === undefined) res.setHeader('Retry-After', String(fault?.retryAfterSeconds ?? 2));
    return sendError(res, facts.requestId, unavailable);
  }
  if (known) {
    if (known.status >= 500) facts.log()?.error({ err, code: known.code }, 'request failed');
    if (res.headersSent) return void res.destroy();
    return sendError(res, facts.requestId, known);
  }
  facts.log()?.error({ err }, 'unhandled error');
  if (res.headersSent) return void res.destroy();
  sendError(res, facts.requestId, new AppError('internal_error', 'Something went wrong on our side. Quote the request id to support.'));
}

/** `answerError` as an express app's error handler. */
export function errorHandler(options: { logger?: Logger; faults?: FaultLog } = {}): ErrorRequestHandler {
  let faults = options.faults ?? (options.logger ? new FaultLog(options.logger) : undefined);
  return (err, req, res, _next) => {
    // Without a logger of its own, the first request's logger writes the interval summaries too.
    faults ??= new FaultLog(req.log ?? silentLogger());
    answerError(err, factsOf(req), res, faults);
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
