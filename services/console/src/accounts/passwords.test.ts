import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', { timeout: 60_000 }, () => {
  it('verifies the password a hash was made from, and nothing else', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery stapler', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same password twice')).not.toBe(await hashPassword('same password twice'));
  });

  it('refuses every password for an account without one', async () => {
    await expect(verifyPassword('', null)).resolves.toBe(false);
    await expect(verifyPassword('anything at all', null)).resolves.toBe(false);
  });
});
