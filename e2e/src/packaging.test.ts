import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restaurantWithKey, startStack, type Stack } from './stack.js';
import { startReceiver } from './webhook-receiver.js';

// @partner/contracts and @partner/sdk as someone outside the workspace gets them: packed with
// `pnpm pack`, installed with npm into a scratch project in the system's temp directory (no workspace
// above it), typechecked with tsc against the installed declarations, then run against the stack.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const consumer = fileURLToPath(new URL('../consumer/', import.meta.url));
const PACKAGES = ['contracts', 'sdk'] as const;

/** The versions the workspace itself builds with, so the scratch project matches it. */
const versionOf = (name: string) => (createRequire(join(root, 'package.json'))(`${name}/package.json`) as { version: string }).version;

/**
 * What npm sees in a user's shell: pnpm hands its scripts npm_config_* variables (its own registry
 * settings among them) that are not npm's business here.
 */
const userEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));

async function newest(dir: string): Promise<number> {
  let latest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.includes('.test.'))
      latest = Math.max(latest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return latest;
}

/** `pnpm test` builds first; a run of this file alone after editing a package builds it here. */
async function ensureBuilt(dir: string) {
  const built = await stat(join(dir, 'dist/index.js')).then(
    (file) => file.mtimeMs,
    () => 0,
  );
  if (built < (await newest(join(dir, 'src')))) await run('pnpm', ['run', 'build'], { cwd: dir });
}

/** Packs both packages, installs the tarballs into a new project in `scratch` and returns its directory. */
async function installPackedPackages(scratch: string): Promise<string> {
  const tarballs: string[] = [];
  for (const name of PACKAGES) {
    const dir = join(root, 'packages', name);
    await ensureBuilt(dir);
    // pnpm pack rewrites workspace: and catalog: ranges and applies publishConfig (exports without `source`).
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', scratch], { cwd: dir });
    tarballs.push(stdout.trim().split('\n').at(-1)!);
  }
  const app = join(scratch, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'partner-integration', private: true, type: 'module' }));
  await copyFile(join(consumer, 'main.ts'), join(app, 'main.ts'));
  await copyFile(join(consumer, 'tsconfig.json'), join(app, 'tsconfig.json'));
  // npm's cache serves what it fetched before: after the first run nothing is downloaded.
  const versions = [`zod@${versionOf('zod')}`, `typescript@${versionOf('typescript')}`];
  const install = () =>
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, ...versions], {
      cwd: app,
      env: userEnv(),
    });
  // The registry is outside our system: one failed fetch (seen once in CI as an ERESOLVE on `zod@undefined`) gets one retry.
  await install().catch(install);
  return app;
}

/** Strict tsc over the program and every declaration file it reaches, the packages' included; emits dist/main.js. */
async function typecheck(app: string): Promise<{ ok: boolean; output: string }> {
  try {
    await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });
    return { ok: true, output: '' };
  } catch (err) {
    const { stdout = '', stderr = '', message } = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${message}\n${stdout}${stderr}` };
  }
}

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

  it('run an integration against the stack: auto-pagination, a sync, a concierge answer, a verified webhook', async () => {
    expect(typechecked.ok, 'the program did not compile').toBe(true);

    const { restaurant, key, auth } = await restaurantWithKey(stack, { environment: 'test' });
    await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    const items = [];
    for (const name of ['Tomato soup', 'Tiramisu', 'Bread', 'Olives', 'Lemonade']) {
      items.push(await stack.console.createItem(restaurant.id, { name, priceCents: 500 }));
    }
    const receiver = await startReceiver();
    const endpoint = await request(stack.gatewayUrl)
      .post('/v1/partner/webhook-endpoints')
      .set(auth)
      .send({ url: receiver.url, enabledEvents: ['item.updated'] });
    expect(endpoint.status).toBe(201);
    await stack.console.updateItem(items[0]!.id, { priceCents: 550 });
    await expect.poll(() => receiver.received.length, { timeout: 5000, interval: 20 }).toBeGreaterThan(0);
    const delivery = receiver.received[0]!;
    await receiver.close();

    const { stdout } = await run(process.execPath, ['dist/main.js'], {
      cwd: app,
      env: {
        ...userEnv(),
        PARTNER_BASE_URL: stack.gatewayUrl,
        PARTNER_API_KEY: key.value,
        RESTAURANT_ID: restaurant.id,
        WEBHOOK: JSON.stringify({ body: delivery.body, headers: delivery.headers, secret: endpoint.body.data.secret }),
      },
    });
    const seen = JSON.parse(stdout);
    expect([...seen.itemIds].sort()).toEqual(items.map((item) => item.id).sort());
    expect(seen.sync).toEqual({ changes: { reset: 0, upsert: 5, delete: 0 }, updatedAfter: expect.any(String) });
    expect(seen.concierge.kinds[0]).toBe('meta');
    expect(seen.concierge.kinds.at(-1)).toBe('done');
    expect(seen.concierge.answer).not.toBe('');
    expect(seen.concierge.disclosure).not.toBe('');
    expect(seen.webhook).toEqual({ id: JSON.parse(delivery.body).id, type: 'item.updated', forged: 401 });
    expect(seen.missing).toBe('not_found');
  }, 60_000);
});
