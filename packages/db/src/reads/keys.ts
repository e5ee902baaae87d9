import type { ApiKeyRow } from '../schema.js';
import type { Executor } from './executor.js';

/** What the gateway needs to authenticate a request: the key and its owner, in one indexed query. */
export interface KeyWithOwner {
  key: ApiKeyRow;
  owner: { kind: 'restaurant' | 'integrator'; id: string; name: string; slug: string; suspended: boolean };
}

/**
 * The keys (and owners) behind any of these hashes, in one indexed query: the gateway looks up the
 * misses of many concurrent requests together. Hashes that match no key are simply absent.
 */
export async function findKeysWithOwnerByHash(db: Executor, keyHashes: readonly string[]): Promise<KeyWithOwner[]> {
  if (keyHashes.length === 0) return [];
  const rows = await db
    .selectFrom('api_keys as k')
    .leftJoin('restaurants as r', 'r.id', 'k.restaurant_id')
    .leftJoin('integrator_orgs as o', 'o.id', 'k.integrator_org_id')
    .selectAll('k')
    .select([
      'r.name as r_name',
      'r.slug as r_slug',
      'r.suspended as r_suspended',
      'o.name as o_name',
      'o.slug as o_slug',
      'o.suspended as o_suspended',
    ])
    .where('k.key_hash', '=', (eb) => eb.fn.any(eb.val([...keyHashes])))
    .execute();
  return rows.map(({ r_name, r_slug, r_suspended, o_name, o_slug, o_suspended, ...key }) => ({
    key,
    owner: key.restaurant_id
      ? { kind: 'restaurant' as const, id: key.restaurant_id, name: r_name ?? '', slug: r_slug ?? '', suspended: r_suspended ?? false }
      : {
          kind: 'integrator' as const,
          id: key.integrator_org_id ?? '',
          name: o_name ?? '',
          slug: o_slug ?? '',
          suspended: o_suspended ?? false,
        },
  }));
}
