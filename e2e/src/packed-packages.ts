import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// @partner/contracts and @partner/sdk as someone outside the workspace gets them: packed with
// `pnpm pack`, installed with npm into a scratch project (no workspace above it), typechecked with tsc
// against the installed declarations, then run: e2e/consumer/main.ts, a small integration.

export const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const consumer = fileURLToPath(new URL('../consumer/', import.meta.url));
const PACKAGES = ['contracts', 'sdk'] as const;

/** The versions the workspace itself builds with, so the scratch project matches it. */
const versionOf = (name: string) => (createRequire(join(root, 'package.json'))(`${name}/package.json`) as { version: string }).version;

/**
 * What npm sees in a user's shell: pnpm hands its scripts npm_config_* variables (its own registry
 * settings among them) that are not npm's business here.
 */
export const userEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm|pnpm)_/i.test(name)));

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
export async function installPackedPackages(scratch: string): Promise<string> {
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
export async function typecheck(app: string): Promise<{ ok: boolean; output: string }> {
  try {
    await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });
    return { ok: true, output: '' };
  } catch (err) {
    const { stdout = '', stderr = '', message } = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${message}\n${stdout}${stderr}` };
  }
}

/** What the integration reports (e2e/consumer/main.ts prints it as JSON). */
export interface ConsumerReport {
  itemIds: string[];
  sync: { changes: { reset: number; upsert: number; delete: number }; updatedAfter: string | null };
  concierge: { kinds: string[]; answer: string; disclosure: string; aborted: string };
  webhooks: { scheme: string; type: string; verified: boolean; forged: number }[];
  missing: string;
}

/**
 * Runs the installed integration against the API at `baseUrl` with a secret key that holds
 * menu:read, assets:read, webhooks:manage and concierge:chat on `restaurantId`; webhooks go to
 * `receiverUrl` (a loopback receiver whose GET lists what it received).
 */
export async function runConsumer(
  app: string,
  target: { baseUrl: string; apiKey: string; restaurantId: string; receiverUrl: string },
): Promise<ConsumerReport> {
  const { stdout } = await run(process.execPath, ['dist/main.js'], {
    cwd: app,
    env: {
      ...userEnv(),
      PARTNER_BASE_URL: target.baseUrl,
      PARTNER_API_KEY: target.apiKey,
      RESTAURANT_ID: target.restaurantId,
      WEBHOOK_RECEIVER_URL: target.receiverUrl,
    },
  });
  return JSON.parse(stdout) as ConsumerReport;
}
