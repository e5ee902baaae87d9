import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { AppError } from '@partner/contracts';
import { type Logger, requestContext, sendError } from '@partner/http';

export interface DashboardDeps {
  /** The built web app (`dist/web`): index.html and hashed assets. */
  webRoot: string;
  consoleUrl: string;
  /** The gateway's origin, whose embed scripts the previews load. */
  publicBaseUrl: string;
  consoleTimeoutMs: number;
  logger: Logger;
}

/**
 * The dashboard's server: the web app's files, and `/console/*` forwarded to console so that the
 * session cookie stays first-party. The browser's own `Authorization` is never forwarded: the
 * admin token works on console directly, never through this public door.
 */
export function createApp(deps: DashboardDeps): Express {
  if (!existsSync(join(deps.webRoot, 'index.html'))) throw new Error(`no built web app in ${deps.webRoot} (pnpm build)`);
  const gateway = new URL(deps.publicBaseUrl).origin;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(deps.logger, { trustIncomingId: false }));
  app.use((_req, res, next) => {
    res.set({
      'Content-Security-Policy': [
        "default-src 'self'",
        // The 3D runtime of the gateway's viewer compiles WebAssembly decoders: that, and no eval.
        `script-src 'self' 'wasm-unsafe-eval' ${gateway}`,
        "style-src 'self' 'unsafe-inline'",
        `img-src 'self' data: blob: ${gateway}`,
        `connect-src 'self' blob: data: ${gateway}`,
        `frame-src ${gateway}`,
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
    });
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'dashboard' });
  });
  // What the web app needs to know of its deployment: where the embed scripts are served.
  app.get('/app-config.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json({ publicBaseUrl: deps.publicBaseUrl });
  });
  app.use(
    createProxyMiddleware({
      target: deps.consoleUrl,
      pathFilter: '/console/**',
      xfwd: true,
      proxyTimeout: deps.consoleTimeoutMs,
      on: {
        proxyReq: (proxyReq, req) => {
          proxyReq.removeHeader('authorization');
          proxyReq.setHeader('x-request-id', (req as express.Request).requestId);
        },
        error: (err, req, res) => {
          const requestId = (req as express.Request).requestId;
          deps.logger.warn({ err: { message: err.message }, requestId }, 'console did not answer');
          if (!('writeHead' in res) || res.headersSent) return void res.destroy();
          sendError(
            res,
            requestId,
            new AppError('service_unavailable', 'The dashboard cannot reach its backend. Retry shortly.', {
              headers: { 'Retry-After': '2' },
            }),
          );
        },
      },
    }),
  );
  // Hashed file names: cached for good. Everything else is the app's one page, never cached.
  app.use('/assets', express.static(join(deps.webRoot, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }));
  app.use(express.static(deps.webRoot, { index: false, maxAge: 0 }));
  app.get('/{*path}', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(join(deps.webRoot, 'index.html'));
  });
  return app;
}
