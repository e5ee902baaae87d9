import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const FORMAT = 'sealed1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** A value that cannot be opened: sealed under a key this ring does not hold, altered, or not sealed at all. */
export class SealError extends Error {}

/**
 * Secrets at rest (webhook signing secrets, stored answers that carry them): AES-256-GCM under a key
 * ring. The first key seals; every key opens, so a key can be rotated: put the new one first, seal
 * again what does not begin with `currentPrefix`, then drop the old one. A sealed value names its key
 * (`sealed1:<key id>:<iv|ciphertext|tag>`) and is bound to a context (what it is the secret of), so a
 * value copied into another row does not open there.
 */
export class SealingKeys {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly currentId: string;

  constructor(keys: readonly { id: string; key: Buffer }[]) {
    if (!keys.length) throw new Error('at least one sealing key is needed');
    for (const { id, key } of keys) {
      if (!KEY_ID.test(id)) throw new Error(`sealing key id "${id}" must be 1 to 32 letters, digits, "_" or "-"`);
      if (key.length !== 32) throw new Error(`sealing key "${id}" must be 32 bytes (base64)`);
    }
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
    if (this.keys.size !== keys.length) throw new Error('sealing key ids must differ');
    this.currentId = keys[0]!.id;
  }

  /** `id:base64key,id:base64key,…`, the sealing key first. Errors never repeat a key. */
  static parse(spec: string): SealingKeys {
    return new SealingKeys(
      spec.split(',').map((entry) => {
        const [id = '', key = '', ...rest] = entry.trim().split(':');
        if (rest.length || !id || !key) throw new Error('each entry must be <key id>:<32 bytes in base64>');
        return { id, key: Buffer.from(key, 'base64') };
      }),
    );
  }

  /** Whether `value` is in the sealed format at all (values stored before sealing began are not). */
  static isSealed(value: string): boolean {
    return value.startsWith(`${FORMAT}:`);
  }

  /** A fresh key in `parse`'s format, for configuration generators and tests. */
  static generateSpec(id: string): string {
    return `${id}:${randomBytes(32).toString('base64')}`;
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}:${this.currentId}:${sealed.toString('base64url')}`;
  }

  open(value: string, context: string): string {
    const [format, id = '', payload = ''] = value.split(':');
    const key = this.keys.get(id);
    if (format !== FORMAT || !key)
      throw new SealError(format === FORMAT ? `sealed under key "${id}", which is not configured` : 'not a sealed value');
    const sealed = Buffer.from(payload, 'base64url');
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new SealError('sealed value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(context))
      .setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SealError('sealed value does not open: altered, or bound to another context');
    }
  }

  /** How every value sealed under the current key begins: the others are to be sealed again after a rotation. */
  get currentPrefix(): string {
    return `${FORMAT}:${this.currentId}:`;
  }
}
