import type { Router } from 'express';
import type { ConsoleDeps } from '../deps.js';
import { MODEL_FILES, uploadModel } from './models.service.js';
import { readMultipartFiles } from './multipart.js';

export function registerModelRoutes(router: Router, deps: ConsoleDeps): void {
  router.put('/console/items/:id/model', async (req, res) => {
    const files = await readMultipartFiles(req, { fields: MODEL_FILES, maxFileBytes: deps.maxModelBytes });
    res.json({ data: await uploadModel(deps, req.params.id, files) });
  });
}
