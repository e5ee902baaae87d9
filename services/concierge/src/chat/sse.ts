import type { Response } from 'express';
import type { TConciergeEvent } from '@partner/contracts';
import { markNotReplayable } from '@partner/http';

/**
 * A Server-Sent Events response: headers that keep proxies from buffering, one `event:`/`data:` pair
 * per event, and a comment line every few seconds so idle connections stay open.
 */
export class SseStream {
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly res: Response,
    heartbeatMs = 15_000,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    // Not flushed here: the headers leave with the first event (a turn's meta, written at once), in
    // one write instead of two.
    this.heartbeat = setInterval(() => this.res.write(': keep-alive\n\n'), heartbeatMs);
    res.once('close', () => this.stop());
  }

  send<E extends TConciergeEvent>(event: E['event'], data: E['data']): void {
    if (this.closed) return;
    // A turn that ends in an error is no result to replay to a retry with the same Idempotency-Key.
    if (event === 'error') markNotReplayable(this.res);
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.stop();
    this.res.end();
  }

  private stop(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
  }
}
