import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one HMAC-SHA256 primitive behind every signed thing we hand out (cursors, asset URLs, view
 * tokens, derived keys). Each purpose holds a key of its own, so a signature made for one purpose can
 * never be replayed as another's.
 */
export class HmacKey {
  constructor(private readonly secret: string) {}

  sign(message: string): Buffer {
    return createHmac('sha256', this.secret).update(message).digest();
  }

  /** base64url signature, as it travels in URLs and tokens. */
  signToString(message: string): string {
    return this.sign(message).toString('base64url');
  }

  /** Whether `signature` (base64url) signs `message`, compared in constant time. */
  verify(message: string, signature: string): boolean {
    const expected = this.sign(message);
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
