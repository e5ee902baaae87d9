import { randomBytes, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 from the CSPRNG (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const newId = (prefix: string, length = 24): string => `${prefix}_${randomBase62(length)}`;

/** Request ids are made on every request: 122 random bits from the CSPRNG's cached pool, as hex. */
export const newRequestId = (): string => `req_${randomUUID().replace(/-/g, '')}`;
