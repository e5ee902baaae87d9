import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateInternalKeyPair } from '@partner/auth';
import { createDb, migrateToLatest } from '@partner/db';
import { SealingKeys } from '@partner/signing';
import { freePort } from '@partner/testing';
import { sleep } from './cleanup.ts';

export const SERVICES = ['console', 'catalog', 'webhooks', 'concierge', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

const mainOf = (name: ServiceName) => fileURLToPath(new URL(`../../services/${name}/dist/main.js`, import.meta.url));

/** The five built services as production runs them (`node dist/main.js`), against the run's own Postgres and Redis. */
export interface Stack {
  gatewayUrl: string;
  gatewayPort: number;
  consoleUrl: string;
  adminToken: string;
  ports: Record<ServiceName, number>;
  logDir: string;
  kill(name: ServiceName, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a service again (same port, same environment) and waits for its health check. */
  restart(name: ServiceName): Promise<void>;
  /** Services that exited without being told to (a crash), in order; each entry once. */
  unexpectedExits: { name: ServiceName; code: number | null; signal: string | null; at: number }[];
  /** Starts again every service whose process ended by itself; returns their names. */
  reviveExited(): Promise<ServiceName[]>;
  /** Whether every service answers /healthz 200 right now. */
  healthy(): Promise<boolean>;
  /** Bytes the services have written to their logs so far. */
  logBytes(): number;
  stop(): Promise<void>;
}

async function waitForHealth(name: string, port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${name} did not become healthy within ${timeoutMs} ms`);
}

export async function startStack(options: { databaseUrl: string; redisUrl: string; workDir: string; logDir: string }): Promise<Stack> {
  const migrator = createDb({ url: options.databaseUrl, max: 1 });
  const migration = await migrateToLatest(migrator);
  await migrator.destroy();
  if (migration.error) throw new Error('migrating the fault database failed', { cause: migration.error });

  const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (name) => [name, await freePort()] as const))) as Record<
    ServiceName,
    number
  >;
  const local = (name: ServiceName) => `http://127.0.0.1:${ports[name]}`;
  const { publicKey, privateKey } = generateInternalKeyPair();
  const secret = () => randomBytes(32).toString('hex');
  const adminToken = secret();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    LOG_LEVEL: process.env.FAULT_LOG_LEVEL ?? 'warn',
    GATEWAY_PORT: String(ports.gateway),
    CATALOG_PORT: String(ports.catalog),
    WEBHOOKS_PORT: String(ports.webhooks),
    CONCIERGE_PORT: String(ports.concierge),
    CONSOLE_PORT: String(ports.console),
    CATALOG_URL: local('catalog'),
    WEBHOOKS_URL: local('webhooks'),
    CONCIERGE_URL: local('concierge'),
    PUBLIC_BASE_URL: local('gateway'),
    CONSOLE_HOST: '127.0.0.1',
    CONSOLE_ADMIN_TOKEN: adminToken,
    INTERNAL_JWT_PRIVATE_KEY: privateKey,
    INTERNAL_JWT_PUBLIC_KEY: publicKey,
    CURSOR_SIGNING_SECRET: secret(),
    ASSET_SIGNING_SECRET: secret(),
    VIEW_TOKEN_SECRET: secret(),
    MENU_PAGE_KEY_SECRET: secret(),
    MENU_PAGE_KEY_ENVIRONMENT: 'test',
    WEBHOOK_SEALING_KEYS: SealingKeys.generateSpec('fault'),
    ASSET_STORAGE_DIR: join(options.workDir, 'assets'),
    // The receiver is on loopback over http; a delivery cut off by the kill is retried within seconds,
    // and an attempt leased by the killed dispatcher is free again soon after.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_BASE_SECONDS: '1',
    WEBHOOK_LEASE_SECONDS: '15',
    // The deadline the services enforce, when the operator sets one for the run (their default otherwise).
    ...(process.env.REQUEST_DEADLINE_MS ? { REQUEST_DEADLINE_MS: process.env.REQUEST_DEADLINE_MS } : {}),
  };
  mkdirSync(options.logDir, { recursive: true });
  const logPath = (name: ServiceName) => join(options.logDir, `${name}.log`);

  const children = new Map<ServiceName, ChildProcess>();
  const told = new WeakSet<ChildProcess>();
  const unexpectedExits: Stack['unexpectedExits'] = [];
  // Once stopped (cleanup, maybe on Ctrl-C while a case runs), nothing starts again behind the cleanup's back.
  let stopped = false;
  const spawnService = (name: ServiceName) => {
    if (stopped) throw new Error('the stack is stopped');
    // The child writes its log file itself: nothing of the runner sits between a service and its log.
    const log = openSync(logPath(name), 'a');
    const child = spawn(process.execPath, [mainOf(name)], { env, stdio: ['ignore', log, log] });
    closeSync(log);
    child.once('exit', (code, signal) => {
      if (!told.has(child) && !stopped) unexpectedExits.push({ name, code, signal, at: Date.now() });
    });
    children.set(name, child);
    return child;
  };
  const kill = async (name: ServiceName, signal: NodeJS.Signals = 'SIGKILL') => {
    const child = children.get(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    told.add(child);
    child.kill(signal);
    await exited;
  };
  const stack: Stack = {
    gatewayUrl: local('gateway'),
    gatewayPort: ports.gateway,
    consoleUrl: local('console'),
    adminToken,
    ports,
    logDir: options.logDir,
    kill,
    async restart(name) {
      await kill(name);
      await waitForHealth(name, ports[name], spawnService(name));
    },
    unexpectedExits,
    async reviveExited() {
      const dead = SERVICES.filter((name) => {
        const child = children.get(name);
        return child !== undefined && (child.exitCode !== null || child.signalCode !== null);
      });
      for (const name of dead) await stack.restart(name);
      return dead;
    },
    async healthy() {
      const answers = await Promise.all(
        SERVICES.map((name) =>
          fetch(`${local(name)}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
            (res) => res.ok,
            () => false,
          ),
        ),
      );
      return answers.every(Boolean);
    },
    logBytes() {
      return SERVICES.reduce((sum, name) => {
        try {
          return sum + statSync(logPath(name)).size;
        } catch {
          return sum;
        }
      }, 0);
    },
    async stop() {
      stopped = true;
      await Promise.all(SERVICES.map((name) => kill(name, 'SIGKILL')));
    },
  };
  try {
    await Promise.all(SERVICES.map((name) => waitForHealth(name, ports[name], spawnService(name))));
  } catch (err) {
    await stack.stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; logs in ${options.logDir}`, { cause: err });
  }
  return stack;
}
