import type { Db } from '@partner/db';
import { sleep } from '../cleanup.ts';
import { recoveryMs } from '../figures.ts';
import { type Sample, startLoad } from '../load.ts';
import type { OwnPostgres } from '../own-postgres.ts';
import type { OwnRedisServer } from '@partner/testing';
import { requestDeadlineMs } from '../report.ts';
import type { Seeded } from '../seed.ts';
import type { Stack } from '../stack.ts';
import type { startReceiver } from '../../src/webhook-receiver.ts';

/** Everything a case may act on. */
export interface FaultContext {
  stack: Stack;
  seeded: Seeded;
  postgres: OwnPostgres;
  redis: OwnRedisServer;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The run's own handle on its database, for reading what the services wrote (the outbox). */
  db: Db;
  concurrency: number;
}

export interface UnderLoad {
  samples: Sample[];
  faultStartAt: number;
  healedAt: number;
  logBytes: number;
}

/** Once this long has been served cleanly after recovering, the load stops. */
const CLEAN_TAIL_MS = 3000;

/**
 * Item detail through the gateway under a closed loop of `concurrency` clients: a baseline, the fault
 * for `durationMs`, its end, then load until the stack has recovered (or `maxTailMs` passed).
 */
export async function runUnderLoad(
  ctx: FaultContext,
  fault: { baselineMs: number; durationMs: number; maxTailMs: number; inject(): unknown; heal(): unknown },
): Promise<UnderLoad> {
  const logBefore = ctx.stack.logBytes();
  const load = startLoad({
    baseUrl: ctx.stack.gatewayUrl,
    paths: ctx.seeded.itemIds.map((id) => `/v1/partner/items/${id}`),
    headers: ctx.seeded.loadKeys.map((key) => ({ authorization: `Bearer ${key}` })),
    concurrency: ctx.concurrency,
    maxRequests: 1_000_000,
    maxDurationMs: fault.baselineMs + fault.durationMs + fault.maxTailMs + 10_000,
    requestTimeoutMs: requestDeadlineMs() + 15_000,
  });
  let faultStartAt: number;
  let healedAt: number;
  let healed = false;
  try {
    await sleep(fault.baselineMs);
    faultStartAt = Date.now();
    await fault.inject();
    await sleep(fault.durationMs);
    await fault.heal();
    healed = true;
    healedAt = Date.now();
    while (Date.now() - healedAt < fault.maxTailMs) {
      await sleep(250);
      const recovery = recoveryMs(load.samples, healedAt);
      if (recovery !== null && Date.now() - (healedAt + recovery) >= CLEAN_TAIL_MS) break;
    }
  } finally {
    // A case that failed half way still gives the stack its dependency back for the next case.
    if (!healed) await Promise.resolve(fault.heal()).catch(() => undefined);
    await load.stop();
  }
  return { samples: load.samples, faultStartAt, healedAt, logBytes: ctx.stack.logBytes() - logBefore };
}
