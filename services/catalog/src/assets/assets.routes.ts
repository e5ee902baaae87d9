import type { NextFunction, Request, Response, Router } from 'express';
import rangeParser from 'range-parser';
import { AppError } from '@partner/contracts';
import { ASSET_FILES } from '@partner/assets';
import type { CatalogDeps } from '../deps.js';

/** An error answered after the file's headers were set must not carry them: nothing may cache it as the file. */
function withoutFileHeaders(res: Response): void {
  for (const name of ['Cache-Control', 'ETag', 'Content-Range', 'Content-Length']) res.removeHeader(name);
}

/** The store (disk or bucket) failed to answer for a file it should have: 503 with Retry-After. */
function storeFault(res: Response, cause: unknown): AppError {
  withoutFileHeaders(res);
  return new AppError('service_unavailable', 'The file could not be read. Retry shortly.', { cause, headers: { 'Retry-After': '1' } });
}

/**
 * Signed model and thumbnail files (DESIGN.md section 4). No key: AR viewers fetch these bare, so the
 * signature in the path is the authorisation. Ranges for viewers that stream, CORS for 3D runtimes
 * that fetch cross-origin, and caching no longer than the URL lives. The catalog streams the bytes
 * whichever driver stores them (no redirect to a bucket), so URLs, headers and errors stay the same.
 */
export function registerAssetRoutes(router: Router, deps: CatalogDeps): void {
  const serve = async (req: Request, res: Response, next: NextFunction) => {
    // Errors too: a viewer reading `expired_signature` knows to fetch fresh URLs.
    res.setHeader('Access-Control-Allow-Origin', '*');
    // A model or image is never a document: nothing in it runs, whatever a browser guesses.
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Referrer-Policy', 'no-referrer');
    const segments = req.path.slice('/v1/assets/'.length).split('/');
    const now = deps.now();
    const check = deps.signer.check(segments, now);
    if (!check.ok) {
      throw check.reason === 'expired'
        ? new AppError('expired_signature', 'This signed URL has expired. Fetch a fresh one from POST /v1/partner/items/{id}/asset-urls.')
        : new AppError('invalid_signature', 'This asset URL is not valid. Use the URL exactly as the API returned it.');
    }
    const stored = await deps.storage.stat(check.storageKey).catch((err: unknown) => {
      throw storeFault(res, err);
    });
    if (stored === null) throw new AppError('not_found', 'No such asset.');
    const { size } = stored;
    const expiresInSeconds = Math.max(0, Number(segments[0]) - Math.floor(now.getTime() / 1000));
    res.setHeader('Content-Type', ASSET_FILES[check.kind].contentType);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Cache-Control', `public, max-age=${expiresInSeconds}, immutable`);
    // Content-addressed: the hash names these bytes, whichever URL or driver serves them.
    res.setHeader('ETag', `"${check.storageKey.split('.')[0]}"`);
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges, ETag');
    // A viewer that has the file already (If-None-Match) gets 304, ahead of any Range (RFC 9110 13.2.2).
    if (req.fresh) {
      res.status(304).end();
      return;
    }

    let range: { start: number; end: number } | undefined;
    const header = req.headers.range;
    if (header) {
      const parsed = rangeParser(size, header, { combine: true });
      if (parsed === -1) {
        withoutFileHeaders(res);
        throw new AppError('range_not_satisfiable', 'The requested range is outside the file.', {
          headers: { 'Content-Range': `bytes */${size}` },
        });
      }
      // A malformed header (-2) or several ranges: answer the whole file, as HTTP allows.
      if (parsed !== -2 && parsed.length === 1) range = parsed[0];
    }
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
    } else {
      res.setHeader('Content-Length', String(size));
    }
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    let clientGone = false;
    const noteGone = () => (clientGone = true);
    res.once('close', noteGone);
    const file = await deps.storage.read(check.storageKey, range).catch((err: unknown) => {
      throw storeFault(res, err);
    });
    res.off('close', noteGone);
    // `pipe` ties neither end: without these, a client gone before or mid-file would keep the file (or
    // the bucket's connection) open for good, and a file that fails mid-read (removed meanwhile, a
    // failing disk, a stalled store) would throw an unhandled stream error that takes the process down.
    if (clientGone) {
      file.destroy();
      return;
    }
    res.once('close', () => file.destroy());
    file.once('error', (err) => {
      if (res.headersSent) return next(err); // mid-file: the connection is cut, nothing more can be said
      next(storeFault(res, err));
    });
    file.pipe(res);
  };
  // Express answers HEAD with the GET route; `serve` sends no body for it.
  router.get('/v1/assets/*path', serve);
}
