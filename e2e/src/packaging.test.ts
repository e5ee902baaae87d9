import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackages, run, runConsumer, typecheck } from './packed-packages.js';
import { restaurantWithKey, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// @partner/contracts and @partner/sdk as someone outside the workspace gets them (packed-packages.ts),
// run against a stack of this test's own. `pnpm try-sdk` runs the same against `pnpm start`.

let scratch: string;
let app: string;
let stack: Stack;
let typechecked: { ok: boolean; output: string };

// Packing, installing and typechecking (tens of seconds on a busy machine) run beside the stack's start.
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'partner-packaging-'));
  const webhooksEnv = { WEBHOOK_DISPATCHER_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  // Settled both before failing, so that afterAll stops a stack that started beside a failed install.
  const [started, installed] = await Promise.allSettled([
    startStack({ webhooksEnv }).then((value) => (stack = value)),
    installPackedPackages(scratch).then(async (dir) => {
      typechecked = await typecheck(dir);
      app = dir;
    }),
  ]);
  for (const outcome of [started, installed]) if (outcome.status === 'rejected') throw outcome.reason;
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the packed packages in a project outside the workspace', () => {
  it('install from their tarballs alone, and a strict program typechecks against them', async () => {
    expect((await readdir(join(app, 'node_modules', '@partner'))).sort()).toEqual(['contracts', 'sdk']);
    expect(typechecked.ok, typechecked.output).toBe(true);
  });

  it("publish the public contract only: the console API's bodies are not importable", async () => {
    const imported = await run(process.execPath, ['--input-type=module', '-e', "await import('@partner/contracts/console')"], {
      cwd: app,
    }).then(
      () => 'imported',
      (err: { stderr: string }) => err.stderr,
    );
    expect(imported).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('run an integration: auto-pagination, a sync, a concierge answer and an abandoned one, webhooks of both schemes verified', async () => {
    expect(typechecked.ok, 'the program did not compile').toBe(true);

    const { restaurant, key } = await restaurantWithKey(stack, { environment: 'test' });
    await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    const items = [];
    for (const name of ['Tomato soup', 'Tiramisu', 'Bread', 'Olives', 'Lemonade']) {
      items.push(await stack.console.createItem(restaurant.id, { name, priceCents: 500 }));
    }
    const receiver = await startReceiver();
    try {
      const seen = await runConsumer(app, {
        baseUrl: stack.gatewayUrl,
        apiKey: key.value,
        restaurantId: restaurant.id,
        receiverUrl: receiver.url,
      });
      expect([...seen.itemIds].sort()).toEqual(items.map((item) => item.id).sort());
      expect(seen.sync).toEqual({ changes: { reset: 0, upsert: 5, delete: 0 }, updatedAfter: expect.any(String) });
      expect(seen.concierge.kinds[0]).toBe('meta');
      expect(seen.concierge.kinds.at(-1)).toBe('done');
      expect(seen.concierge.answer).not.toBe('');
      expect(seen.concierge.disclosure).not.toBe('');
      expect(seen.concierge.aborted).toBe('AbortError');
      expect(seen.webhooks).toEqual([
        { scheme: 'x-service-signature', type: 'ping', verified: true, forged: 401 },
        { scheme: 'standard-webhooks', type: 'ping', verified: true, forged: 401 },
      ]);
      expect(seen.missing).toBe('not_found');
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
