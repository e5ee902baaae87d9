import type { NextFunction, Request, Response, Router } from 'express';
import rangeParser from 'range-parser';
import { AppError } from '@partner/contracts';
import { ASSET_FILES } from '@partner/assets';
import type { CatalogDeps } from '../deps.js';

/**
 * Signed model and thumbnail files (DESIGN.md section 4). No key: AR viewers fetch these bare, so the
 * signature in the path is the authorisation. Ranges for viewers that stream, CORS for 3D runtimes
 * that fetch cross-origin, and caching no longer than the URL lives.
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
    const size = await deps.storage.size(check.storageKey);
    if (size === null) throw new AppError('not_found', 'No such asset.');
    let range: { start: number; end: number } | undefined;
    const header = req.headers.range;
    if (header) {
      const parsed = rangeParser(size, header, { combine: true });
      if (parsed === -1) {
        throw new AppError('range_not_satisfiable', 'The requested range is outside the file.', {
          headers: { 'Content-Range': `bytes */${size}` },
        });
      }
      // A malformed header (-2) or several ranges: answer the whole file, as HTTP allows.
      if (parsed !== -2 && parsed.length === 1) range = parsed[0];
    }
    const expiresInSeconds = Math.max(0, Number(segments[0]) - Math.floor(now.getTime() / 1000));
    res.setHeader('Content-Type', ASSET_FILES[check.kind].contentType);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Cache-Control', `public, max-age=${expiresInSeconds}, immutable`);
    res.setHeader('ETag', `"${segments[2]}"`);
    res.setHeader('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges');

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
    const file = deps.storage.read(check.storageKey, range);
    // `pipe` ties neither end: without these, a client gone mid-file would keep the file open for good,
    // and a file that cannot be read after all (removed since its size was taken, a failing disk) would
    // throw an unhandled stream error that takes the process down.
    res.once('close', () => file.destroy());
    file.once('error', (err) => {
      if (res.headersSent) return next(err); // mid-file: the connection is cut, nothing more can be said
      for (const name of ['Cache-Control', 'ETag', 'Content-Range']) res.removeHeader(name);
      next(
        new AppError('service_unavailable', 'The file could not be read. Retry shortly.', { cause: err, headers: { 'Retry-After': '1' } }),
      );
    });
    file.pipe(res);
  };
  // Express answers HEAD with the GET route; `serve` sends no body for it.
  router.get('/v1/assets/*path', serve);
}
