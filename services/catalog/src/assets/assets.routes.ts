import type { Request, Response, Router } from 'express';
import rangeParser from 'range-parser';
import { AppError } from '@partner/kit';
import { ASSET_FILES } from '@partner/platform';
import type { CatalogDeps } from '../deps.js';

/**
 * Signed model and thumbnail files (DESIGN.md section 4). No key: AR viewers fetch these bare, so the
 * signature in the path is the authorisation. Ranges for viewers that stream, CORS for 3D runtimes
 * that fetch cross-origin, and caching no longer than the URL lives.
 */
export function registerAssetRoutes(router: Router, deps: CatalogDeps): void {
  const serve = async (req: Request, res: Response) => {
    // Errors too: a viewer reading `expired_signature` knows to fetch fresh URLs.
    res.setHeader('Access-Control-Allow-Origin', '*');
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
    deps.storage.read(check.storageKey, range).pipe(res);
  };
  // Express answers HEAD with the GET route; `serve` sends no body for it.
  router.get('/v1/assets/*path', serve);
}
