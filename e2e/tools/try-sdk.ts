// `pnpm try-sdk`: what an integrator does on day one, against the stack `pnpm start` runs. Packs
// @partner/contracts and @partner/sdk, installs them into a scratch project outside the workspace,
// typechecks e2e/consumer/main.ts against them and runs it with the demo restaurant's secret test key
// (from .data/local-state.json): items with auto-pagination, a sync, a concierge answer, webhooks of
// both signature schemes verified. PARTNER_BASE_URL picks another gateway (default localhost:8080).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPackedPackages, runConsumer, typecheck } from '../src/packed-packages.ts';
import { startReceiver } from '../src/webhook-receiver.ts';

const statePath = new URL('../../.data/local-state.json', import.meta.url);
const state = JSON.parse(await readFile(statePath, 'utf8').catch(() => 'null')) as {
  demo?: { restaurantId: string; secretKey: string };
} | null;
if (!state?.demo) throw new Error('No demo restaurant in .data/local-state.json: run `pnpm start` first.');

const baseUrl = process.env.PARTNER_BASE_URL ?? 'http://localhost:8080';
const scratch = await mkdtemp(join(tmpdir(), 'partner-try-sdk-'));
const receiver = await startReceiver();
try {
  console.log(`packing and installing @partner/contracts and @partner/sdk into ${scratch}/app`);
  const app = await installPackedPackages(scratch);
  const checked = await typecheck(app);
  if (!checked.ok) throw new Error(`the integration does not typecheck:\n${checked.output}`);
  console.log(`typechecked; running it against ${baseUrl} for ${state.demo.restaurantId}`);
  const seen = await runConsumer(app, {
    baseUrl,
    apiKey: state.demo.secretKey,
    restaurantId: state.demo.restaurantId,
    receiverUrl: receiver.url,
  });
  console.log(JSON.stringify(seen, null, 2));
  const ok =
    seen.itemIds.length > 0 &&
    seen.sync.changes.upsert === seen.itemIds.length &&
    seen.concierge.kinds.at(-1) === 'done' &&
    seen.concierge.aborted === 'AbortError' &&
    seen.webhooks.length === 2 &&
    seen.webhooks.every((webhook) => webhook.verified && webhook.forged === 401) &&
    seen.missing === 'not_found';
  console.log(ok ? 'ok: the packed SDK works against this stack' : 'FAILED: see above');
  process.exitCode = ok ? 0 : 1;
} finally {
  await receiver.close();
  await rm(scratch, { recursive: true, force: true });
}
