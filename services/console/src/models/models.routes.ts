import type { Router } from 'express';
import { actorOf } from '../accounts/actor.js';
import { reachItem } from '../accounts/reach-rows.js';
import type { ConsoleDeps } from '../deps.js';
import { MODEL_FILES, uploadModel } from './models.service.js';
import { readMultipartFiles } from './multipart.js';

export function registerModelRoutes(router: Router, deps: ConsoleDeps): void {
  router.put('/console/items/:id/model', async (req, res) => {
    await reachItem(deps.db, actorOf(req), req.params.id);
    const files = await readMultipartFiles(req, { fields: MODEL_FILES, maxFileBytes: deps.maxModelBytes });
    res.json({ data: await uploadModel(deps, req.params.id, files) });
  });
}
