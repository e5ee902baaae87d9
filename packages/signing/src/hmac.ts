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

  /**
   * Whether `signature` is exactly the base64url signature of `message`, compared in constant time.
   * Compared as text, not decoded: Node's decoder skips characters outside the alphabet and the last
   * character's unused bits, so decoding would let one signature be spelled many ways.
   */
  verify(message: string, signature: string): boolean {
    const expected = Buffer.from(this.signToString(message));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
