import type { Router } from 'express';
import { AppError } from '@partner/kit';
import type { CatalogDeps } from '../deps.js';
import { renderMenuPage } from './menu-page.js';

export function registerMenuPageRoutes(router: Router, deps: CatalogDeps): void {
  router.get('/menu/:id', async (req, res) => {
    const html = await renderMenuPage(deps, req.params.id);
    if (!html) throw new AppError('not_found', 'No such menu.');
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.type('html').send(html);
  });
}
