import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { keyPrincipal } from '@partner/auth';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type Db, type IdempotencyRecordRow } from '@partner/db';
import { AppError } from '@partner/kit';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
const WAIT = { intervalMs: 50, maxMs: 10_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function replay(res: Response, record: IdempotencyRecordRow): void {
  res.status(record.response_status ?? 200);
  if (record.response_content_type) res.setHeader('Content-Type', record.response_content_type);
  res.setHeader('Idempotent-Replayed', 'true');
  res.end(record.response_body ?? '');
}

/**
 * `Idempotency-Key` on every mutating route (spec 5.5): the first request with a key runs and its
 * answer is stored in Postgres for 24 hours, bound to the API key, method, path and body hash. A
 * retry gets the stored answer; the same key on a different request is `409 idempotency_key_conflict`;
 * a retry that arrives while the first is still running waits for its answer. A 5xx, a 429 (quota or
 * allowance used up: the retry is meant to run once they allow it) or an interrupted execution is not
 * stored, so the retry runs again.
 */
export function idempotency(db: Db): RequestHandler {
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

    for (const started = Date.now(); ; await sleep(WAIT.intervalMs)) {
      const result = await claimIdempotencyKey(db, claim);
      if (result.claimed) break;
      const { existing } = result;
      if (existing.method !== claim.method || existing.path !== claim.path || existing.body_hash !== claim.bodyHash) {
        throw new AppError('idempotency_key_conflict', 'This Idempotency-Key was already used for a different request.', {
          param: 'Idempotency-Key',
        });
      }
      if (existing.state === 'completed') return replay(res, existing);
      if (Date.now() - started > WAIT.maxMs) {
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running. Retry shortly.', {
          param: 'Idempotency-Key',
        });
      }
    }

    const key = { apiKeyId: claim.apiKeyId, idempotencyKey };
    let captured: { status: number; body: string } | null = null;
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      captured = { status: res.statusCode, body: typeof body === 'string' || Buffer.isBuffer(body) ? String(body) : JSON.stringify(body) };
      return send(body);
    };
    res.once('close', () => {
      const outcome = captured as { status: number; body: string } | null;
      const settle =
        res.writableFinished && outcome && outcome.status < 500 && outcome.status !== 429
          ? completeIdempotencyKey(db, key, { ...outcome, contentType: String(res.getHeader('content-type') ?? '') || null })
          : releaseIdempotencyKey(db, key);
      settle.catch((err: unknown) => req.log.error({ err }, 'could not settle an idempotency record'));
    });
    next();
  };
}
