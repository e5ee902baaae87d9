import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type RequestHandler } from 'express';

/** Where the built embed scripts are (packages/embed/dist), wherever the gateway is installed. */
export const embedScriptsDir = (): string => join(dirname(createRequire(import.meta.url).resolve('@partner/embed/package.json')), 'dist');

/**
 * `/embed/*.js`, for third-party pages: cacheable for a few minutes (the versioned file names change
 * when the API does), readable from any origin, and never sniffed as another type. The policy is that
 * of the files themselves, not of the pages that load them (a page's own CSP governs a script it
 * includes): opened directly, a file may load nothing and be framed by no one.
 */
export function embedScripts(dir: string): RequestHandler {
  return express.static(dir, {
    index: false,
    redirect: false,
    maxAge: '5m',
    setHeaders: (res) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      res.setHeader('Referrer-Policy', 'no-referrer');
    },
  });
}
