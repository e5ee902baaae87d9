import type { Router } from 'express';
import { AppError } from '@partner/contracts';
import type { CatalogDeps } from '../deps.js';
import { renderMenuPage } from './menu-page.js';

/**
 * The page runs our two embeds and nothing else: scripts, models and API calls from the gateway's
 * origin only (its own included), images and 3D textures also from data: and blob: URLs (the 3D
 * runtime makes them), inline styles for the embeds' shadow roots; never framed, no plugins, no forms.
 * WebAssembly may compile (not JavaScript eval): the 3D runtime's mesh decoder is a WebAssembly module
 * it instantiates as it loads, and without 'wasm-unsafe-eval' that throws on the page.
 */
function menuPagePolicy(publicBaseUrl: string): string {
  const gateway = new URL(publicBaseUrl).origin;
  return [
    `default-src 'self' ${gateway}`,
    `script-src 'self' ${gateway} 'wasm-unsafe-eval'`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' ${gateway} data: blob:`,
    `connect-src 'self' ${gateway} data: blob:`,
    `worker-src 'self' blob:`,
    `frame-ancestors 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `object-src 'none'`,
  ].join('; ');
}

export function registerMenuPageRoutes(router: Router, deps: CatalogDeps): void {
  const policy = menuPagePolicy(deps.publicBaseUrl);
  router.get('/menu/:id', async (req, res) => {
    const html = await deps.menuPages.get(req.params.id, () => renderMenuPage(deps, req.params.id));
    if (!html) throw new AppError('not_found', 'No such menu.');
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.type('html').send(html);
  });
}
