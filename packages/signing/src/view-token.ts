import type { HmacKey } from './hmac.js';

/**
 * A token the viewer embed gets with an item and presents when it refreshes that item's expired URLs,
 * so a refresh is told apart from a new view (which counts against the quota). Bound to the key and
 * the item, valid for `lifetimeMs`.
 */
export class ViewTokens {
  constructor(
    private readonly key: HmacKey,
    private readonly lifetimeMs: number,
  ) {}

  issue(keyId: string, itemId: string, now: Date): string {
    const expires = now.getTime() + this.lifetimeMs;
    return `${expires}.${this.key.signToString(`${keyId}|${itemId}|${expires}`)}`;
  }

  isValid(token: string, keyId: string, itemId: string, now: Date): boolean {
    const [expires, mac, extra] = token.split('.');
    if (!expires || !mac || extra !== undefined || !/^\d{1,15}$/.test(expires) || Number(expires) <= now.getTime()) return false;
    return this.key.verify(`${keyId}|${itemId}|${expires}`, mac);
  }
}
