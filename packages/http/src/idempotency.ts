import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type HeldClaim,
  purgeIdempotencyRecords,
  releaseIdempotencyKey,
  renewIdempotencyClaim,
} from './idempotency.repository.js';
import { whenAnswerClosed } from './answer-closed.js';
import { deadlinePassed } from './http.js';
import type { Logger } from './logger.js';
import { keyPrincipal } from './internal-auth.js';
import type { Db, IdempotencyRecordRow } from '@partner/db';
import { AppError } from '@partner/contracts';
import type { SealingKeys } from '@partner/signing';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
const WAIT = { intervalMs: 50, maxMs: 10_000 };
/** Well inside the minute after which an execution's claim counts as abandoned (claimIdempotencyKey). */
const RENEW_CLAIM_MS = 20_000;
/** How long a claim is kept for a route still running after its client left or the request deadline answered for it. */
const LATE_ANSWER_MAX_MS = 5 * 60_000;

/** Answers larger than this are not stored: a retry with their key runs again. */
const MAX_STORED_BYTES = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const NOT_REPLAYABLE = 'idempotencyNotReplayable';

/**
 * For a route whose status is already out when it fails (a stream ending with an error event): the
 * answer is not stored, so a retry with the same Idempotency-Key runs again.
 */
export function markNotReplayable(res: Response): void {
  res.locals[NOT_REPLAYABLE] = true;
}

/**
 * Everything the route writes (a JSON body or a whole event stream), unless it grows past the limit;
 * `ended` tells whether the route has ended its answer.
 */
function captureBody(res: Response): { body: () => Buffer | null; ended: () => boolean; onEnd: (listener: () => void) => void } {
  let ended = false;
  let endListener = () => {};
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (tooLarge || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > MAX_STORED_BYTES) {
      tooLarge = true;
      chunks.length = 0;
    } else chunks.push(buffer);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    ended = true;
    const result = end(chunk, ...rest);
    endListener();
    return result;
  }) as Response['end'];
  return {
    body: () => (tooLarge ? null : Buffer.concat(chunks)),
    ended: () => ended,
    onEnd: (listener) => (endListener = listener),
  };
}

/** What a stored answer is bound to when it is sealed: it opens for this key's replay only. */
/** What a late route passed to `res.send` (a JSON string from `res.json`, as a rule), as stored bytes. */
function lateBody(body: unknown): Buffer | null {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  return body === undefined || body === null ? null : Buffer.from(JSON.stringify(body), 'utf8');
}

const sealingContext = (key: { apiKeyId: string; idempotencyKey: string }) => `idempotency:${key.apiKeyId}:${key.idempotencyKey}`;

/** A stored answer as it was sent; one sealed under a key no longer configured cannot be replayed. */
function storedBody(record: IdempotencyRecordRow, sealing: SealingKeys | undefined): string {
  if (!record.response_body || !sealing) return record.response_body ?? '';
  try {
    return sealing.open(record.response_body, sealingContext({ apiKeyId: record.api_key_id, idempotencyKey: record.idempotency_key }));
  } catch (err) {
    throw new AppError('service_unavailable', 'The stored answer for this Idempotency-Key cannot be read. Retry later.', {
      cause: err,
      headers: { 'Retry-After': '60' },
    });
  }
}

function replay(res: Response, record: IdempotencyRecordRow, sealing: SealingKeys | undefined): void {
  const body = storedBody(record, sealing);
  res.status(record.response_status ?? 200);
  if (record.response_content_type) res.setHeader('Content-Type', record.response_content_type);
  res.setHeader('Idempotent-Replayed', 'true');
  res.end(body);
}

/**
 * `Idempotency-Key` on every mutating route (spec 5.5): the first request with a key runs and its
 * answer (a JSON body, or a whole event stream once it has finished) is stored in Postgres for 24
 * hours, bound to the API key, method, path and body hash. A retry gets the stored answer; the same
 * key on a different request is `409 idempotency_key_conflict`; a retry that arrives while the first
 * is still running waits for its answer. A 5xx, a 429 (quota or allowance used up: the retry is meant
 * to run once they allow it), an answer its route marked not replayable, or a stream cut short by its
 * client is not stored, so the retry runs again; a route whose client left before its answer runs on,
 * and that answer is stored. With `sealing`, answers are stored sealed (a service whose
 * answers carry secrets: a webhook endpoint's signing secret).
 */
export function idempotency(db: Db, options: { sealing?: SealingKeys } = {}): RequestHandler {
  const { sealing } = options;
  return async (req, res, next) => {
    if (!MUTATING.has(req.method)) return next();
    const idempotencyKey = req.headers['idempotency-key'];
    if (idempotencyKey === undefined) return next();
    if (typeof idempotencyKey !== 'string' || !KEY_FORMAT.test(idempotencyKey)) {
      throw new AppError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', { param: 'Idempotency-Key' });
    }
    const claim = {
      apiKeyId: keyPrincipal(req.principal).keyId,
      idempotencyKey,
      method: req.method,
      path: req.originalUrl,
      bodyHash: createHash('sha256')
        .update(JSON.stringify(req.body ?? null))
        .digest('hex'),
    };

    let held: HeldClaim | undefined;
    for (const started = Date.now(); ; await sleep(WAIT.intervalMs)) {
      // The request deadline has answered for us: stop asking.
      if (res.headersSent) return;
      const result = await claimIdempotencyKey(db, claim);
      if (result.claimed) {
        held = result.held;
        break;
      }
      const { existing } = result;
      if (existing.method !== claim.method || existing.path !== claim.path || existing.body_hash !== claim.bodyHash) {
        throw new AppError('idempotency_key_conflict', 'This Idempotency-Key was already used for a different request.', {
          param: 'Idempotency-Key',
        });
      }
      if (existing.state === 'completed') return res.headersSent ? undefined : replay(res, existing, sealing);
      if (Date.now() - started > WAIT.maxMs) {
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running. Retry shortly.', {
          param: 'Idempotency-Key',
        });
      }
    }

    const settle = (answer: { status: number; body: Buffer | null; contentType: string | null }) => {
      const settled =
        answer.body && answer.status < 500 && answer.status !== 429 && !res.locals[NOT_REPLAYABLE]
          ? completeIdempotencyKey(db, held, {
              status: answer.status,
              body: sealing ? sealing.seal(answer.body.toString('utf8'), sealingContext(held)) : answer.body.toString('utf8'),
              contentType: answer.contentType,
            })
          : releaseIdempotencyKey(db, held);
      settled.catch((err: unknown) => req.log.error({ err }, 'could not settle an idempotency record'));
    };
    // The deadline answered while this request waited for its claim: no route will run for it.
    if (res.headersSent) return settle({ status: 503, body: null, contentType: null });

    const captured = captureBody(res);
    const renewal = setInterval(() => {
      renewIdempotencyClaim(db, held).catch((err: unknown) => req.log.warn({ err }, 'could not renew an idempotency claim'));
    }, RENEW_CLAIM_MS);
    renewal.unref();
    let givingUp: NodeJS.Timeout | undefined;
    const stopRenewing = () => {
      clearInterval(renewal);
      clearTimeout(givingUp);
    };
    // A route that outlives the request deadline still answers, to no one (its headers would fail). Its
    // answer is caught here and stored, so that the client's retry replays what the route did instead
    // of running it a second time, or waiting for the claim to lapse.
    const send = res.send.bind(res);
    res.send = ((body?: unknown) => {
      if (!(deadlinePassed(res) && res.headersSent)) return send(body);
      stopRenewing();
      settle({ status: res.statusCode, body: lateBody(body), contentType: 'application/json; charset=utf-8' });
      return res;
    }) as Response['send'];
    const settleCaptured = () => {
      stopRenewing();
      settle({ status: res.statusCode, body: captured.body(), contentType: String(res.getHeader('content-type') ?? '') || null });
    };
    // The claim stays the running route's until its late answer; one that never comes lets it lapse.
    const awaitLateAnswer = () => {
      givingUp = setTimeout(stopRenewing, LATE_ANSWER_MAX_MS);
      givingUp.unref();
    };
    const onClose = () => {
      if (deadlinePassed(res)) return awaitLateAnswer();
      // Ended before the connection closed: the route's whole answer, whether or not it all arrived.
      if (captured.ended()) return settleCaptured();
      // The client went away while the route was still working on its answer: it still runs, and what
      // it answers, to no one, is what the client's retry gets (not a second run beside or after it).
      if (!res.headersSent) {
        captured.onEnd(settleCaptured);
        return awaitLateAnswer();
      }
      // A stream cut short: not stored, so the retry runs again.
      stopRenewing();
      settle({ status: res.statusCode, body: null, contentType: null });
    };
    // At once if the client went while this request waited for its claim.
    whenAnswerClosed(res, onClose);
    next();
  };
}

const PURGE_EVERY_MS = 3600 * 1000;

/**
 * Hourly: forget idempotency records past their 24 hours. The records are this module's (every
 * service behind the gateway runs it), so every replica of every such service may purge them; the
 * delete is idempotent.
 */
export function startIdempotencyPurge(db: Db, logger: Logger): { stop(): void } {
  const timer = setInterval(() => {
    purgeIdempotencyRecords(db).catch((err: unknown) => logger.error({ err }, 'idempotency purge failed'));
  }, PURGE_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
