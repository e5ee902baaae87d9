import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

/**
 * Redoc's self-contained bundle, copied into dist/ by `pnpm build` (no CDN, works offline; the image
 * ships the file, not Redoc's dependencies). The same path from src/ and from dist/.
 */
const REDOC_BUNDLE = fileURLToPath(new URL('../../dist/redoc.standalone.js', import.meta.url));

/** The reference page runs our copy of Redoc on the document and nothing else. */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Partner API reference</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <redoc spec-url="/v1/openapi.json" hide-download-button="false" path-in-middle-panel="true" required-props-first="true"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`;

/**
 * `GET /v1/openapi.json`, the public API's OpenAPI document with this gateway's public URL as its
 * server (no key: tools and code generators fetch it), and `GET /docs`, the reference rendered from it.
 */
export function apiReference(serverUrl: string): Router {
  // Built on the first request, and its code (zod-openapi, every operation's schemas) loaded then too:
  // most replicas are never asked for it, and loading it cost each one memory at start-up.
  let json: Promise<string> | undefined;
  const router = express.Router();
  router.get('/v1/openapi.json', async (_req, res) => {
    json ??= import('./document.js').then(({ buildOpenApiDocument }) => JSON.stringify(buildOpenApiDocument({ serverUrl })));
    const body = await json;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('json').send(body);
  });
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('html').send(PAGE);
  });
  router.get('/docs/redoc.standalone.js', (_req, res) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.sendFile(REDOC_BUNDLE, { maxAge: '1h' });
  });
  return router;
}
