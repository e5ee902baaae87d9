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
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * One connection of its own that LISTENs on the outbox's channel, so the dispatcher hears of a new
 * event at once. It is only a wake-up: while it hears nothing (disconnected, or its LISTEN lost behind
 * a PgBouncer) the dispatcher's safety poll still finds everything, so neither a failed first connect
 * nor a lost connection ever fails the service; it retries, 1 s at first, doubling to 30 s.
 */
export class OutboxListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;

  constructor(private readonly options: OutboxListenerOptions) {}

  /** Starts connecting and returns at once. */
  start(): void {
    void this.connect();
  }

  /** Closes the connection and stops reconnecting: no wake-up after this. */
  async stop(): Promise<void> {
    this.stopped = true;
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
    // A terminated backend emits 'error' then 'end', a failed connect maybe neither: act once per client.
    const onLost = (err: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => {});
      if (!this.stopped) this.reconnectLater(err);
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('connection ended')));
    client.on('notification', (message) => {
      if (!this.stopped && message.channel === OUTBOX_CHANNEL) this.options.onWake();
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
