// The webhooks benchmark's baseline: a bare undici POST loop, no database, no signing, no bookkeeping.
// Forked by webhooks.bench.ts, pinned to the dispatcher's core, it sends COUNT bodies to RECEIVER_URL
// with CONCURRENCY in flight once told 'go', and answers how long that took.
import { request } from 'undici';

const url = process.env.RECEIVER_URL!;
const count = Number(process.env.COUNT);
const concurrency = Number(process.env.CONCURRENCY);
const template = process.env.BODY_TEMPLATE!;
const headers = JSON.parse(process.env.HEADERS!) as Record<string, string>;
let serial = 0;

async function worker(): Promise<void> {
  while (serial < count) {
    const body = template.replace('%ID%', `evt_raw${String(serial++).padStart(12, '0')}`);
    const res = await request(url, { method: 'POST', headers, body });
    await res.body.dump();
    if (res.statusCode >= 300) throw new Error(`the receiver answered ${res.statusCode}`);
  }
}

process.once('message', () => {
  const started = performance.now();
  void Promise.all(Array.from({ length: concurrency }, worker)).then(() =>
    process.send!({ seconds: (performance.now() - started) / 1000 }, () => process.exit(0)),
  );
});
process.send!('ready');
