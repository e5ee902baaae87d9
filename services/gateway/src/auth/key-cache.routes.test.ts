import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, type IssuedKey, type Owner, startGatewayHarness } from '../testing/app-harness.js';

// The key cache at the gateway's door: what a revocation, a suspension or the cache's bound does to
// the answers, with console's pub/sub messages on the real Redis and the keys in the real Postgres.
let harness: GatewayHarness;
beforeAll(async () => {
  harness = await startGatewayHarness({ KEY_CACHE_MAX_KEYS: '3' });
});
afterAll(() => harness.close());

const me = async (key: IssuedKey) => (await request(harness.app).get('/v1/partner/me').set(key.auth)).status;

/** Revokes the keys in Postgres without telling the gateway: only a key not cached (any more) sees it. */
const revokeSilently = (...keys: IssuedKey[]) =>
  harness.db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where(
      'id',
      'in',
      keys.map((key) => key.row.id),
    )
    .execute();

const pollStatus = (key: IssuedKey) => expect.poll(() => me(key), { timeout: 2_000, interval: 20 });

describe('key cache', () => {
  it("drops exactly the revoked key's entry: its owner's other keys stay cached", async () => {
    const owner = await harness.restaurant();
    const [revoked, sibling] = [await harness.issueKey(owner), await harness.issueKey(owner)];
    expect([await me(revoked), await me(sibling)]).toEqual([200, 200]);
    await revokeSilently(revoked, sibling);
    await harness.invalidateKeys({ keyId: revoked.row.id });
    await pollStatus(revoked).toBe(401);
    // The sibling's row is revoked too, but nobody said so: it is still answered from the cache.
    expect(await me(sibling)).toBe(200);
  });

  it.each<['restaurant' | 'integrator']>([['restaurant'], ['integrator']])(
    "drops every key of a %s whose suspension changed, and no one else's",
    async (kind) => {
      const owner: Owner = kind === 'restaurant' ? await harness.restaurant() : await harness.integrator();
      const other = await harness.restaurant();
      const [first, second, bystander] = [await harness.issueKey(owner), await harness.issueKey(owner), await harness.issueKey(other)];
      expect([await me(first), await me(second), await me(bystander)]).toEqual([200, 200, 200]);
      await revokeSilently(bystander);
      await harness.setSuspended(owner, true);
      await pollStatus(first).toBe(403);
      expect([await me(second), await me(bystander)]).toEqual([403, 200]);
    },
  );

  it('keeps the keys used most recently within its bound, not the first ones in', async () => {
    const owner = await harness.restaurant();
    const [a, b, c] = [await harness.issueKey(owner), await harness.issueKey(owner), await harness.issueKey(owner)];
    for (const key of [a, b, c, a]) expect(await me(key)).toBe(200);
    // With room for three, a fourth key pushes out the least recently used: `b`, not `a`.
    const d = await harness.issueKey(owner);
    expect(await me(d)).toBe(200);
    await revokeSilently(a, b, c, d);
    expect([await me(a), await me(c), await me(d)]).toEqual([200, 200, 200]);
    expect(await me(b)).toBe(401);
  });
});
