import { randomBytes, scrypt as scryptCallback, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import pLimit from 'p-limit';

/**
 * Passwords hashed with scrypt at OWASP's recommended cost (N = 2^17, r = 8, p = 1: 128 MiB and about
 * half a second here), stored with their parameters so that a later cost can be read beside an older one.
 */
const COST = { log2N: 17, r: 8, p: 1 };
const KEY_BYTES = 32;
/** Two hashes at a time (256 MiB at most): a burst of sign-ins waits its turn rather than exhausting memory. */
const hashing = pLimit(2);

function scrypt(password: string, salt: Buffer, cost: typeof COST): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.log2N, r: cost.r, p: cost.p, maxmem: 2 * 128 * 2 ** cost.log2N * cost.r };
  return hashing(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCallback(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

/** `scrypt$17$8$1$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return ['scrypt', COST.log2N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Stands in for an account without a password, so that asking costs the same time either way. */
const UNUSABLE = `scrypt$${COST.log2N}$${COST.r}$${COST.p}$${randomBytes(16).toString('base64url')}$${randomBytes(KEY_BYTES).toString('base64url')}`;

/** True when `password` is the one `stored` was made from; with no stored hash, false after the same work. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, log2N, r, p, salt, key] = (stored ?? UNUSABLE).split('$');
  if (scheme !== 'scrypt' || !salt || !key) throw new Error('unknown password hash scheme');
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { log2N: Number(log2N), r: Number(r), p: Number(p) });
  return stored !== null && timingSafeEqual(actual, expected);
}
