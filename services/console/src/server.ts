import { type StartedService, startWith } from '@partner/http';
import { createApp } from './app.js';
import type { ConsoleConfig } from './config.js';
import { createDeps } from './deps.js';
import { startHousekeeping } from './housekeeping/housekeeping.js';

export async function startConsole(config: ConsoleConfig): Promise<StartedService> {
  const { deps, closeDeps } = await createDeps(config);
  const housekeeping = startHousekeeping(deps);
  return startWith(
    {
      app: createApp(deps),
      logger: deps.logger,
      closeDeps: async () => {
        housekeeping.stop();
        await closeDeps();
      },
    },
    config.port,
    config.host,
  );
}
