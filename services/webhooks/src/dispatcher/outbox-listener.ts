import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { OUTBOX_CHANNEL } from '@partner/db';
import { describeFault, type Logger } from '@partner/http';

export interface OutboxListenerOptions {
  /** Straight to Postgres: behind PgBouncer in transaction mode a LISTEN is lost with its server connection. */
  url: string;
  logger: Logger;
  /** Called on every notification, and once after each (re)connect, as notifications may have been missed. */
  onWake: () => void;
  /** The connection's application_name ('webhooks-listener'). */
  applicationName?: string;
  /** How long connecting may take before it counts as failed; unset, as long as the kernel lets it. */
  connectTimeoutMs?: number;
  /**
   * Sends `payload` on the outbox's channel through another connection (`notifyOutboxChannel`). A
   * LISTEN can be lost without a word: behind a PgBouncer in transaction mode, or on a connection that
   * died without a reset. So, connected, the listener sends itself one every `probeEveryMs` (30 s); one
   * not heard within `probeWithinMs` (5 s) counts as a lost connection: logged, and connected afresh.
   */
  probe?: (payload: string) => Promise<void>;
  probeEveryMs?: number;
  probeWithinMs?: number;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
const PROBE_EVERY_MS = 30_000;
const PROBE_WITHIN_MS = 5_000;
const PROBE_PREFIX = 'probe:';

/**
 * One connection of its own that LISTENs on the outbox's channel, so the dispatcher hears of a new
 * event at once. It is only a wake-up: while it hears nothing (disconnected, or its LISTEN lost behind
 * a PgBouncer, which its probe notices) the dispatcher's safety poll still finds everything, so neither
 * a failed first connect nor a lost connection ever fails the service; it retries, 1 s at first,
 * doubling to 30 s.
 */
export class OutboxListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;
  private listeningNow = false;
  private lostCount = 0;

  constructor(private readonly options: OutboxListenerOptions) {}

  /** Whether it LISTENs now: connected, listening, and not yet found deaf by a probe. */
  get listening(): boolean {
    return this.listeningNow;
  }

  /** How many times its LISTEN was lost: its connection failed, or its own probe went unheard. */
  get timesLost(): number {
    return this.lostCount;
  }

  /** Starts connecting and returns at once; a second call does nothing. */
  start(): void {
    if (this.client || this.retry || this.stopped) return;
    void this.connect();
  }

  /** Closes the connection and stops reconnecting: no wake-up after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.listeningNow = false;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    this.retry = null;
    let client: pg.Client;
    try {
      // Inside the try: a URL pg cannot use (a bad port, an unreadable sslkey file) throws right here.
      client = new pg.Client({
        connectionString: this.options.url,
        application_name: this.options.applicationName ?? 'webhooks-listener',
        // A connection that died without a reset (a host gone) is noticed within about a minute.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        connectionTimeoutMillis: this.options.connectTimeoutMs,
      });
    } catch (err) {
      if (!this.stopped) this.reconnectLater(err);
      return;
    }
    this.client = client;
    let lost = false;
    let probing: NodeJS.Timeout | null = null;
    let awaitedProbe: string | null = null;
    /** Aborted when this connection is lost or closed: ends a probe's wait. */
    const connection = new AbortController();
    // A terminated backend emits 'error' then 'end', a failed connect maybe neither: act once per client.
    const onLost = (err: unknown) => {
      if (lost) return;
      lost = true;
      if (probing) clearInterval(probing);
      connection.abort();
      if (this.client === client) this.client = null;
      if (this.listeningNow && !this.stopped) this.lostCount++;
      this.listeningNow = false;
      void client.end().catch(() => {});
      if (!this.stopped) this.reconnectLater(err);
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    client.on('notification', (message) => {
      if (this.stopped || message.channel !== OUTBOX_CHANNEL) return;
      if (!message.payload?.startsWith(PROBE_PREFIX)) this.options.onWake();
      else if (message.payload === awaitedProbe) awaitedProbe = null;
    });
    try {
      await client.connect();
      await client.query(`listen ${OUTBOX_CHANNEL}`);
    } catch (err) {
      onLost(err);
      return;
    }
    if (lost || this.stopped) return;
    this.failures = 0;
    this.listeningNow = true;
    const { probe } = this.options;
    if (probe) {
      const withinMs = this.options.probeWithinMs ?? PROBE_WITHIN_MS;
      // One probe, given `withinMs` to be heard once it is sent (a slow database is not a lost LISTEN),
      // and decided after the event loop's next read of the network (one that arrived while the loop
      // was busy counts as heard).
      const probeOnce = async (): Promise<void> => {
        const payload = `${PROBE_PREFIX}${randomUUID()}`;
        awaitedProbe = payload;
        try {
          await probe(payload);
        } catch {
          // Not sent (the database is away): nothing learnt of the LISTEN; the next probe asks again.
          awaitedProbe = null;
          return;
        }
        await sleep(withinMs, undefined, { ref: false, signal: connection.signal });
        await nextTurn(undefined, { signal: connection.signal });
        if (awaitedProbe === payload) onLost(new Error(`its own probe went unheard for ${withinMs / 1000} s`));
      };
      probing = setInterval(() => {
        // A wait ended by the connection's end rejects: nothing to do.
        if (awaitedProbe === null) probeOnce().catch(() => {});
      }, this.options.probeEveryMs ?? PROBE_EVERY_MS);
      probing.unref();
    }
    this.options.onWake();
  }

  private reconnectLater(err: unknown): void {
    const delayMs = Math.min(FIRST_RETRY_MS * 2 ** this.failures, MAX_RETRY_MS);
    this.failures++;
    // Never the URL: it may hold a password.
    this.options.logger.warn(
      { fault: describeFault(err), retryInMs: delayMs },
      'outbox listener not connected; retrying, events go out at the next poll meanwhile',
    );
    this.retry = setTimeout(() => void this.connect(), delayMs);
    this.retry.unref();
  }
}
