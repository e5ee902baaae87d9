// `pnpm --filter @partner/bench processes` (part of `pnpm bench`): each service's cold start, from
// spawning `node dist/main.js` to its /healthz answering 200, and its resident memory once idle, beside a
// bare node:http server started and measured the same way. Medians of BENCH_ROUNDS (3) starts.
import type { ChildProcess } from 'node:child_process';
import { benchRedisUrl, createBenchDatabase, median, reportMeasures, startBareJsonServer, startProcess, stopProcesses } from '@partner/bench-kit';
import { freePort, platformEnvironment } from '@partner/testing';
import { residentMegabytes } from './rss.js';
import { mainOf, PORT_VARIABLE, SERVICES } from './services.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** How long a started process is left alone before its memory is read: start-up's garbage has been collected. */
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 3000);
const READY_WITHIN_MS = 1500;
const IDLE_RSS_MB = 150;

interface Start {
  readyMs: number;
  rssMb: number;
}

/** Starts a process, times it to its first 200 on /healthz (polled every 5 ms), then reads its idle RSS. */
async function measureStart(name: string, port: number, spawnIt: () => ChildProcess): Promise<Start> {
  const started = performance.now();
  const child = spawnIt();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode} before /healthz answered`);
      if (performance.now() - started > 30_000) throw new Error(`${name}: /healthz did not answer 200 within 30 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const readyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { readyMs, rssMb: residentMegabytes(child.pid!) };
  } finally {
    await stopProcesses([child]);
  }
}

const database = await createBenchDatabase();
const env = platformEnvironment(database.url, benchRedisUrl);
const BARE = 'bare node:http server';
const starters: [string, (port: number) => ChildProcess][] = [
  [BARE, (port) => startBareJsonServer(port, { ok: true })],
  ...SERVICES.map((service): [string, (port: number) => ChildProcess] => [
    service,
    (port) => startProcess(mainOf(service), { ...env, [PORT_VARIABLE[service]]: String(port) }),
  ]),
];
const starts = new Map<string, Start[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, start] of starters) {
    const port = await freePort();
    starts.set(name, [...(starts.get(name) ?? []), await measureStart(name, port, () => start(port))]);
  }
}
await database.drop();

const medianOf = (name: string, figure: keyof Start) => median(starts.get(name)!.map((start) => start[figure]));
const bareReady = medianOf(BARE, 'readyMs');
const bareRss = medianOf(BARE, 'rssMb');
const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;
const mb = (value: number) => `${Math.round(value)} MB`;
reportMeasures(
  `Cold start to ready and idle RSS, medians of ${ROUNDS} starts, idle ${IDLE_MS / 1000} s`,
  SERVICES.flatMap((service) => {
    const ready = medianOf(service, 'readyMs');
    const rss = medianOf(service, 'rssMb');
    return [
      {
        measure: `${service} cold start to /healthz 200`,
        figure: ms(ready),
        baseline: `${ms(bareReady)} (${BARE})`,
        ratio: `${(ready / bareReady).toFixed(1)}x`,
        target: `≤ ${ms(READY_WITHIN_MS)}`,
        met: ready <= READY_WITHIN_MS,
      },
      {
        measure: `${service} idle RSS`,
        figure: mb(rss),
        baseline: `${mb(bareRss)} (${BARE})`,
        ratio: `${(rss / bareRss).toFixed(1)}x`,
        target: `≤ ${mb(IDLE_RSS_MB)}`,
        met: rss <= IDLE_RSS_MB,
      },
    ];
  }),
);
