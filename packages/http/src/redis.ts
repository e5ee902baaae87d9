import { RedisClient as NodeRedisClient } from '@redis/client';

/**
 * One client class for every client of the process. node-redis builds a class per distinct set of
 * options (each of its ~800 commands added to a fresh prototype, about 20 MB of short-lived garbage
 * per class, which grew V8's young generation for good: the gateway, with two clients of different
 * options, idled at 192 MB); `factory` builds it once, and the options go to each instance. The client
 * comes from `@redis/client`, node-redis's core, not the `redis` package, which loads the Redis Stack
 * modules (JSON, search, time series, Bloom) too: nothing uses them, and they cost every process about
 * 50 ms of its start and 3 MB.
 */
const createClient = NodeRedisClient.factory();
type None = Record<never, never>;
export type RedisClient = ReturnType<typeof NodeRedisClient.create<None, None, None, 3, None>>;

export interface RedisConnectOptions {
  /**
   * For a client on a per-request hot path whose caller bounds each wait itself. node-redis arms an
   * `AbortSignal.timeout` for every command (5 s by default) that fires later even when its command
   * answered long before, building a DOMException each time: with one command per request that was
   * about a twelfth of the gateway's CPU (docs/benchmarks.md). Such a client has no per-command timer,
   * and while disconnected it refuses commands at once instead of queueing them until a reconnect.
   */
  callerBoundsWaits?: boolean;
  /**
   * `REDIS_COMMAND_TIMEOUT_MS`: the longest any command waits, queued while disconnected or sent
   * (node-redis's own default is 5 s), and the longest a connection attempt takes.
   */
  commandTimeoutMs?: number;
}

/** A connected client. Errors go to the caller's handler rather than crashing the process. */
export async function connectRedis(url: string, onError: (err: Error) => void, options: RedisConnectOptions = {}): Promise<RedisClient> {
  const socket = options.commandTimeoutMs === undefined ? {} : { socket: { connectTimeout: options.commandTimeoutMs } };
  const client: RedisClient = options.callerBoundsWaits
    ? createClient({ url, ...socket, commandOptions: { timeout: 0 }, disableOfflineQueue: true })
    : options.commandTimeoutMs === undefined
      ? createClient({ url })
      : createClient({ url, ...socket, commandOptions: { timeout: options.commandTimeoutMs } });
  client.on('error', onError);
  await client.connect();
  return client;
}

/**
 * Closes a client, letting its pending commands finish for at most `withinMs`. `quit()` alone waits for
 * a reconnect that a Redis which is down never grants, and held a SIGTERM'd process open without end.
 */
export async function closeRedis(client: RedisClient, withinMs = 1_000): Promise<void> {
  if (!client.isOpen) return;
  if (!client.isReady) return client.destroy();
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'gave up'>((resolve) => (timer = setTimeout(() => resolve('gave up'), withinMs)));
  const outcome = await Promise.race([client.close().catch(() => 'gave up' as const), gaveUp]);
  clearTimeout(timer);
  if (outcome === 'gave up' && client.isOpen) client.destroy();
}
