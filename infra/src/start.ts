import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { dataDir, loadLocalState, repoRoot, saveLocalState } from './local-env.js';
import { LocalSetupError, prepareLocalStack } from './local-prepare.js';
import { maskUrl } from './local-services.js';
import { startMailbox } from '@partner/local-mail';
import { DEMO_OWNER_EMAIL, seedDemo, signInLinkFor } from './seed.js';

// `pnpm start`: the whole stack on this machine. Finds (or starts, or installs) Postgres and Redis unless
// DATABASE_URL / REDIS_URL name others, migrates, starts the five services from their built output (as
// production runs them) and the dashboard, seeds a demo restaurant and its owner through the console API,
// prints keys and a sign-in link. Without SMTP_URL, e-mails go to a mail server of this process that prints
// their links here.

async function waitForHealth(name: string, port: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}; see .data/logs/${name}.log`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} did not become healthy; see .data/logs/${name}.log`);
}

// Ctrl-C reaches the whole foreground process group, the services included; SIGTERM only this process.
// Either way every service is asked to stop (SIGTERM: in-flight requests finish), killed if it has not
// within 10 s, and the launcher exits 0 with one line: an interrupted stack is no failure. A second
// Ctrl-C kills what is left at once. Registered first, so a signal during the migration is clean too.
const children: { name: string; port: string; child: ChildProcess; log: WriteStream }[] = [];
let stopping = false;
// Gone, and its last log lines written (the pipe into the log file drains after the process exits).
const exited = ({ log }: { log: WriteStream }) =>
  new Promise<void>((resolve) => (log.closed ? resolve() : log.once('close', () => resolve())));
const killAll = () => {
  for (const { child } of children) child.kill('SIGKILL');
};
const stopAll = (code: number) => {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) child.kill('SIGTERM');
  setTimeout(killAll, 10_000).unref();
  void Promise.all(children.map(exited)).then(() => {
    if (code === 0) console.log('\nstopped');
    process.exit(code);
  });
};
const onSignal = () => (stopping ? killAll() : stopAll(0));
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const stack = await prepareLocalStack(process.env).catch((err: unknown) => {
  if (!(err instanceof LocalSetupError)) throw err;
  console.error(err.message);
  process.exit(1);
});

const state = loadLocalState();
// Sign-in links and invitations: printed here once the stack is up (the first one goes in the banner).
let printMail = false;
const mailbox = process.env.SMTP_URL
  ? null
  : await startMailbox({
      onMail: (mail) => {
        if (printMail)
          console.log(`\n✉  to ${mail.to.join(', ')}: ${mail.subject}\n   ${/https?:\/\/\S+/.exec(mail.text)?.[0] ?? mail.text}\n`);
      },
    });
const env = {
  DATABASE_URL: stack.databaseUrl,
  REDIS_URL: stack.redisUrl,
  GATEWAY_PORT: process.env.GATEWAY_PORT ?? '8080',
  CATALOG_PORT: process.env.CATALOG_PORT ?? '8081',
  WEBHOOKS_PORT: process.env.WEBHOOKS_PORT ?? '8082',
  // The gateway proxies to it; console calls its operator routes.
  WEBHOOKS_URL: process.env.WEBHOOKS_URL ?? `http://127.0.0.1:${process.env.WEBHOOKS_PORT ?? '8082'}`,
  CONCIERGE_PORT: process.env.CONCIERGE_PORT ?? '8083',
  CONSOLE_PORT: process.env.CONSOLE_PORT ?? '8084',
  DASHBOARD_PORT: process.env.DASHBOARD_PORT ?? '8085',
  // The dashboard's origin: links in e-mails open there, and its cookie is Secure only behind https.
  CONSOLE_PUBLIC_URL: process.env.CONSOLE_PUBLIC_URL ?? `http://localhost:${process.env.DASHBOARD_PORT ?? '8085'}`,
  CONSOLE_URL: process.env.CONSOLE_URL ?? `http://127.0.0.1:${process.env.CONSOLE_PORT ?? '8084'}`,
  SMTP_URL: process.env.SMTP_URL ?? mailbox!.url,
  // The console API is the operators' and the dashboard's: on this machine only.
  CONSOLE_HOST: process.env.CONSOLE_HOST ?? '127.0.0.1',
  CONSOLE_ADMIN_TOKEN: process.env.CONSOLE_ADMIN_TOKEN ?? state.adminToken,
  CURSOR_SIGNING_SECRET: process.env.CURSOR_SIGNING_SECRET ?? state.cursorSecret,
  ASSET_SIGNING_SECRET: process.env.ASSET_SIGNING_SECRET ?? state.assetSecret,
  MENU_PAGE_KEY_SECRET: process.env.MENU_PAGE_KEY_SECRET ?? state.menuPageKeySecret,
  VIEW_TOKEN_SECRET: process.env.VIEW_TOKEN_SECRET ?? state.viewTokenSecret,
  WEBHOOK_SEALING_KEYS: process.env.WEBHOOK_SEALING_KEYS ?? state.webhookSealingKeys,
  // A receiver on this machine (http://localhost:3000/hooks) can be registered and sent to. Production
  // leaves it unset: https and public addresses only.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? 'true',
  // Locally there is usually no model: the demo page's widget then answers from the sandbox.
  MENU_PAGE_KEY_ENVIRONMENT: process.env.MENU_PAGE_KEY_ENVIRONMENT ?? (process.env.OPENAI_API_KEY ? 'live' : 'test'),
  ASSET_STORAGE_DIR: process.env.ASSET_STORAGE_DIR ?? join(dataDir, 'assets'),
  INTERNAL_JWT_PRIVATE_KEY: process.env.INTERNAL_JWT_PRIVATE_KEY ?? state.jwt.privateKey,
  INTERNAL_JWT_PUBLIC_KEY: process.env.INTERNAL_JWT_PUBLIC_KEY ?? state.jwt.publicKey,
  // The drain lets a load balancer notice a stopping replica; here nothing routes by readiness, and it
  // would only hold Ctrl-C for its 5 s.
  SHUTDOWN_DRAIN_SECONDS: process.env.SHUTDOWN_DRAIN_SECONDS ?? '0',
  // Logs and access lines for a person to read (.data/logs/<service>.log); production keeps JSON.
  LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty',
};
const gatewayUrl = process.env.PUBLIC_BASE_URL ?? `http://localhost:${env.GATEWAY_PORT}`;
const dashboardUrl = env.CONSOLE_PUBLIC_URL;
let signInLink: string | null = null;
const consoleUrl = `http://127.0.0.1:${env.CONSOLE_PORT}`;

const logDir = join(dataDir, 'logs');
mkdirSync(logDir, { recursive: true });
// Each service's Prometheus metrics on a port of its own, on this machine only (METRICS_BASE_PORT + 0..4).
const metricsBasePort = Number(process.env.METRICS_BASE_PORT ?? 9180);
const services = [
  ['console', env.CONSOLE_PORT, metricsBasePort + 4],
  ['catalog', env.CATALOG_PORT, metricsBasePort + 1],
  ['webhooks', env.WEBHOOKS_PORT, metricsBasePort + 2],
  ['concierge', env.CONCIERGE_PORT, metricsBasePort + 3],
  ['gateway', env.GATEWAY_PORT, metricsBasePort],
  ['dashboard', env.DASHBOARD_PORT, null],
] as const;
for (const [name, port, metricsPort] of services) {
  if (stopping) break;
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(repoRoot, 'services', name, 'dist', 'main.js')], {
    env: {
      ...process.env,
      ...env,
      PUBLIC_BASE_URL: gatewayUrl,
      ...(metricsPort === null ? {} : { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.once('close', () => log.end());
  children.push({ name, port, child, log });
}

try {
  await Promise.all(children.map(({ name, port, child }) => waitForHealth(name, port, child)));
  for (const { name, child } of children) {
    child.once('exit', (code) => {
      if (!stopping) {
        console.error(`${name} exited (${code}); stopping the stack. See .data/logs/${name}.log`);
        stopAll(1);
      }
    });
  }
  state.demo = await seedDemo({ consoleUrl, adminToken: env.CONSOLE_ADMIN_TOKEN, previous: state.demo, gatewayUrl });
  saveLocalState(state);
  signInLink =
    mailbox && (await signInLinkFor({ consoleUrl, adminToken: env.CONSOLE_ADMIN_TOKEN, restaurantId: state.demo.restaurantId, mailbox }));
} catch (err) {
  // Stopping on a signal breaks the health checks and the seed; that is no error to report.
  if (!stopping) console.error(err instanceof Error ? err.message : err);
  stopAll(1);
  await new Promise(() => {});
}

const demo = state.demo!;
// The service reads the flag as zBoolFlag does: true, 1 or yes.
const privateTargetsLine = ['true', '1', 'yes'].includes(env.WEBHOOK_ALLOW_PRIVATE_TARGETS)
  ? `http:// and private targets allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS=${env.WEBHOOK_ALLOW_PRIVATE_TARGETS}; local development only)`
  : `https and public targets only (WEBHOOK_ALLOW_PRIVATE_TARGETS=${env.WEBHOOK_ALLOW_PRIVATE_TARGETS})`;
console.log(`
Partner platform is running.

  gateway   ${gatewayUrl}            (public API: /v1/partner/...)
  docs      ${gatewayUrl}/docs       (API reference; guides in docs/guides)
  dashboard ${dashboardUrl}            (owners and integrators sign in here)
  console   ${consoleUrl}        (admin API; token below)
  services  catalog :${env.CATALOG_PORT}  webhooks :${env.WEBHOOKS_PORT}  concierge :${env.CONCIERGE_PORT}
  metrics   http://127.0.0.1:<port>/metrics, gateway :${metricsBasePort}  catalog :${metricsBasePort + 1}  webhooks :${metricsBasePort + 2}  concierge :${metricsBasePort + 3}  console :${metricsBasePort + 4}
  postgres  ${maskUrl(env.DATABASE_URL)}
  redis     ${maskUrl(env.REDIS_URL)}
  logs      .data/logs/<service>.log
  webhooks  ${privateTargetsLine}

Demo restaurant ${demo.restaurantId}
  secret test key       ${demo.secretKey}
  publishable test key  ${demo.publishableKey}   (allowed origins: http://localhost:${env.GATEWAY_PORT}, http://localhost:5173)
  console admin token   ${env.CONSOLE_ADMIN_TOKEN}

Dashboard: ${dashboardUrl}  as ${DEMO_OWNER_EMAIL}, the demo restaurant's owner
  ${signInLink ? `sign in now: ${signInLink}\n  (works once; later, ask the sign-in page for a link: it is printed here)` : `ask the sign-in page for a link: it is sent through ${maskUrl(env.SMTP_URL)}`}

Demo URL: ${gatewayUrl}/menu/${demo.restaurantId}
  (the demo restaurant's public menu page: 3D dish viewers and the concierge widget)

Try it:
  curl -s ${gatewayUrl}/v1/partner/me -H "Authorization: Bearer ${demo.secretKey}"
  curl -s ${gatewayUrl}/v1/partner/restaurants -H "Authorization: Bearer ${demo.secretKey}"
  curl -s "${gatewayUrl}/v1/partner/restaurants/${demo.restaurantId}/items?limit=2" -H "Authorization: Bearer ${demo.secretKey}"
  curl -sN ${gatewayUrl}/v1/partner/restaurants/${demo.restaurantId}/concierge/chat -H "Authorization: Bearer ${demo.secretKey}" \\
    -H 'content-type: application/json' -d '{"message":"Anything with salmon?"}'
  curl -s ${gatewayUrl}/v1/partner/webhook-endpoints -H "Authorization: Bearer ${demo.secretKey}" \\
    -H 'content-type: application/json' -d '{"url":"http://localhost:3000/hooks"}'
  curl -s -X POST ${gatewayUrl}/v1/partner/webhook-endpoints/<we_…>/test -H "Authorization: Bearer ${demo.secretKey}"
  pnpm console key create --restaurant ${demo.restaurantId} --type secret --env test --name "my key"

Ctrl-C stops everything.
`);
printMail = true;
