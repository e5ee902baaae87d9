import type { Router } from 'express';
import { ZKillSwitch } from '@partner/contracts/console';
import { readPlatformSettings } from '@partner/db';
import { writePlatformSetting } from './platform-settings.repository.js';
import { parseWith } from '@partner/http';
import { actorOf, requireOperator } from '../accounts/actor.js';
import type { ConsoleDeps } from '../deps.js';

/** The platform kill switch: when on, no restaurant's concierge is servable (spec 3). */
export function registerPlatformSettingsRoutes(router: Router, deps: ConsoleDeps): void {
  router.get('/console/platform/kill-switch', async (_req, res) => {
    res.json({ data: { concierge: (await readPlatformSettings(deps.db)).conciergeKillSwitch } });
  });
  router.put('/console/platform/kill-switch', async (req, res) => {
    requireOperator(actorOf(req), 'switch every concierge off');
    const body = parseWith(ZKillSwitch, req.body, 'body');
    await writePlatformSetting(deps.db, 'conciergeKillSwitch', body.concierge);
    res.json({ data: { concierge: body.concierge } });
  });
}
