import { silentLogger } from '@partner/http';
import { Dispatcher, type OwnerMailer, WebhookSender } from '@partner/webhooks';
import type { Stack } from './stack.js';

/**
 * A dispatcher of a test's own on the stack's database (the stack's own loop is off), with a clock the
 * test moves (`clock.now`, from `base`). Private targets are allowed, as with `pnpm start`, unless the
 * test checks the refusal.
 */
export function ownDispatcher(stack: Stack, options: { base?: number; allowPrivate?: boolean; mailer?: OwnerMailer } = {}) {
  const clock = { now: options.base ?? Date.now() };
  const now = () => new Date(clock.now);
  const sender = new WebhookSender({ allowPrivate: options.allowPrivate ?? true }, now);
  const dispatcher = new Dispatcher({
    db: stack.db,
    logger: silentLogger(),
    sender,
    sealing: stack.sealing,
    now,
    retryBaseMs: 60_000,
    mailer: options.mailer,
  });
  return { clock, dispatcher, close: () => sender.close() };
}
