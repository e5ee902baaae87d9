import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, SERVICES } from './k8s-manifests.js';

// infra/Dockerfile without a Docker engine: the build context as .dockerignore filters it, copied to a
// scratch directory, where the build stage's lines after `COPY . .` run for each service as written.
// Turbo reads the workspace's own cache (`pnpm test` builds first), as BuildKit's cache would serve a
// rebuild: only what changed is compiled again.

const run = promisify(execFile);

/** `.dockerignore` as a matcher, with Docker's rules: patterns from the context's root, `**` across directories, a match on a directory excludes what it holds. */
function ignoreRules(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (patterns.some((pattern) => pattern.startsWith('!'))) throw new Error('exceptions (!) in .dockerignore are not modelled here');
  const expressions = patterns.map((pattern) => new RegExp(`^${patternSource(pattern.replace(/^\/+/, ''))}$`));
  return (path) => {
    const segments = path.split('/');
    return segments.some((_, index) => expressions.some((expression) => expression.test(segments.slice(0, index + 1).join('/'))));
  };
}

/** `*` and `?` within one path segment, `**` across any number of them. */
function patternSource(pattern: string): string {
  const segments = pattern.split('/');
  return segments
    .map((segment, index) => {
      if (segment === '**') return index === segments.length - 1 ? '.*' : '(?:.*/)?';
      const source = segment
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]');
      return index === segments.length - 1 ? source : `${source}/`;
    })
    .join('');
}

/** The files `COPY . .` receives, relative to the context's root. */
async function contextFiles(excluded: (path: string) => boolean, dir = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(repoRoot, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (excluded(path)) continue;
    if (entry.isDirectory()) files.push(...(await contextFiles(excluded, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

interface Step {
  instruction: 'ARG' | 'ENV' | 'RUN';
  text: string;
}

/** The build stage's ARG, ENV and RUN lines after `COPY . .`, continuation lines joined. */
function buildSteps(dockerfile: string): Step[] {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n');
  const from = lines.findIndex((line) => line.startsWith('FROM '));
  const stage = lines.slice(
    from,
    lines.findIndex((line, index) => index > from && line.startsWith('FROM ')),
  );
  const afterCopy = stage.slice(stage.indexOf('COPY . .') + 1);
  return afterCopy.flatMap((line) => {
    const match = /^(ARG|ENV|RUN) (.*)$/.exec(line);
    return match ? [{ instruction: match[1] as Step['instruction'], text: match[2]! }] : [];
  });
}

const NETWORK_ENV = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/** Runs the steps in `cwd` with the build arguments given, as `docker build` would in /src. */
async function runSteps(steps: Step[], cwd: string, args: Record<string, string>) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TURBO_CACHE_DIR: join(repoRoot, '.turbo/cache'),
    // The machine's way to the registry (its own CA, a proxy), as a build host's is configured. The
    // CA must come by variable: under the project's Node, npm and pnpm read no machine-wide npmrc.
    ...Object.fromEntries(NETWORK_ENV.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
  };
  const runLine = (line: string, registry: Record<string, string>) => {
    const running = run('bash', ['-euo', 'pipefail', '-c', line], { cwd, env: { ...env, ...registry }, maxBuffer: 64 * 1024 * 1024 });
    // No standard input, as in `docker build`: a tool that would ask a question gets its answer (EOF) at once.
    running.child.stdin?.end();
    return running;
  };
  for (const step of steps) {
    if (step.instruction === 'RUN') {
      // BuildKit's --mount flags change where caches live, not what the line does.
      const line = step.text.replace(/^(--\S+\s+)+/, '');
      // `pnpm deploy` resolves the packages' peer ranges again, with metadata from the registry, which is
      // outside our system: pnpm was seen waiting on it for over ten minutes here (2026-11-27). The
      // machine's store and metadata cache hold everything after `pnpm install`, so a line runs offline
      // first, and reaches for the registry only where the cache lacks something (a new machine).
      await runLine(line, { npm_config_offline: 'true' })
        .catch(async () => {
          // What the offline try left behind (a half-made deploy directory) would refuse the second.
          if (env.OUT) await rm(env.OUT, { recursive: true, force: true });
          return runLine(line, { npm_config_prefer_offline: 'true' });
        })
        .catch((err: Error & { stdout?: string }) => {
          // pnpm reports on standard output: the message alone would not say what went wrong.
          throw new Error(`${err.message}\n${err.stdout?.slice(-4000) ?? ''}`, { cause: err });
        });
    } else {
      const [name, value = ''] = step.text.split(/=(.*)/s) as [string, string?];
      env[name] = args[name] ?? value;
    }
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

const excluded = ignoreRules(await readFile(join(repoRoot, '.dockerignore'), 'utf8'));
let scratch: string;
let context: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'partner-image-'));
  context = join(scratch, 'src');
  for (const file of await contextFiles(excluded)) {
    await mkdir(join(context, dirname(file)), { recursive: true });
    await copyFile(join(repoRoot, file), join(context, file));
  }
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the build context (.dockerignore)', () => {
  it('leaves out local state, secrets, dependencies and build output, wherever they are', () => {
    const leftOut = [
      '.data/local-state.json',
      '.git/config',
      '.env',
      'services/console/.env.local',
      'node_modules/express/index.js',
      'services/gateway/node_modules/undici/index.js',
      'packages/db/dist/migrate-cli.js',
      '.turbo/cache/a.tar.zst',
      'packages/sdk/coverage/index.html',
      'infra/tsconfig.tsbuildinfo',
      'pnpm-debug.log',
      'infra/k8s/overlays/example/secrets.env',
      'bench-results/run.json',
    ];
    expect(leftOut.filter((path) => !excluded(path))).toEqual([]);
    const kept = [
      'pnpm-lock.yaml',
      'package.json',
      '.npmrc',
      'services/gateway/src/main.ts',
      'packages/db/src/migrate-cli.ts',
      'infra/k8s/overlays/example/secrets.env.example',
    ];
    expect(kept.filter(excluded)).toEqual([]);
  });

  it('is what the copy holds: sources and the lockfile, no node_modules, no .data', async () => {
    const files = await filesUnder(context);
    expect(files).toContain('pnpm-lock.yaml');
    expect(files).toContain('services/gateway/src/main.ts');
    expect(files.filter((file) => /(^|\/)(node_modules|dist|\.data|\.git)\//.test(file))).toEqual([]);
  });
});

describe('the build stage of infra/Dockerfile, run in a copy of the context', () => {
  let steps: Step[];

  beforeAll(async () => {
    steps = buildSteps(await readFile(join(repoRoot, 'infra/Dockerfile'), 'utf8'));
    expect(steps.filter((step) => step.instruction === 'RUN').length).toBeGreaterThan(0);
  });

  it.each(SERVICES)(
    'deploys %s with production dependencies only, and the directory starts on its own',
    async (service) => {
      const out = join(scratch, 'out', service);
      await runSteps(steps, context, { SERVICE: service, OUT: out });

      const files = await filesUnder(out);
      expect(files).toContain('dist/main.js');
      expect(files.filter((file) => /(^|\/)(\.data|\.env[^/]*|local-state\.json)(\/|$)/.test(file))).toEqual([]);
      const modules = await readdir(join(out, 'node_modules/.pnpm'));
      expect(modules.filter((name) => /^(vitest|supertest|@vitest\+|vite@|typescript@|@partner\+(testing|bench-kit))/.test(name))).toEqual(
        [],
      );
      // The packages it uses, never another service.
      const partner = existsSync(join(out, 'node_modules/@partner')) ? await readdir(join(out, 'node_modules/@partner')) : [];
      expect(partner.filter((name) => (SERVICES as readonly string[]).includes(name))).toEqual([]);

      // Every import resolves inside the directory: without configuration it stops on the config error alone.
      const started = await run(process.execPath, ['dist/main.js'], { cwd: out, env: { PATH: process.env.PATH ?? '' } }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(started.code).toBe(1);
      expect(started.stderr).toMatch(/^Invalid configuration:\n {2}DATABASE_URL: /);

      const { stdout } = await run('du', ['-sm', out]);
      console.info(`deploy directory of ${service}: ${stdout.split('\t')[0]} MB`);
    },
    600_000,
  );
});
