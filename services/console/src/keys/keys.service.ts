import type { z } from 'zod';
import { asScopes, DEFAULT_SECRET_SCOPES, generateApiKey, isWildcardTooBroad, redactKey, TEST_KEY_LIMITS } from '@partner/auth';
import { managedKeyHashes, refuseManagedKey } from './managed-keys.js';
import { keyInvalidations, newId, readKeysLastUsed } from '@partner/http';
import { findApiKeyById, insertApiKey, listApiKeysByOwner, lockOwnerTestKeys, revokeApiKey } from './keys.repository.js';
import { findIntegratorOrgById } from '../integrators/integrators.repository.js';
import { type ApiKeyRow, findRestaurantById } from '@partner/db';
import { AppError } from '@partner/contracts';
import type { TConsoleKey, ZCreateKey } from '@partner/contracts/console';
import type { ConsoleDeps } from '../deps.js';
import type { ConsoleActor } from '../accounts/actor.js';
import { reachKey } from '../accounts/reach-rows.js';

/** Live keys start at this per-minute ceiling unless created with another; test keys always get TEST_KEY_LIMITS. */
const DEFAULT_LIVE_RATE_PER_MIN = 600;

export function presentKey(row: ApiKeyRow): TConsoleKey {
  return {
    id: row.id,
    restaurantId: row.restaurant_id,
    integratorOrgId: row.integrator_org_id,
    type: row.type,
    environment: row.environment,
    name: row.name,
    scopes: asScopes(row.scopes),
    rateLimitPerMin: row.environment === 'test' ? TEST_KEY_LIMITS.perMinute : row.rate_limit_per_min,
    allowedOrigins: row.allowed_origins,
    redacted: redactKey(row.prefix, row.last4),
    expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}

/** Active test keys an owner may hold at once. */
export const MAX_TEST_KEYS_PER_OWNER = 10;

/** The plaintext is in this response and nowhere else, ever: only its SHA-256 is stored. */
export async function createKey(deps: ConsoleDeps, body: z.infer<typeof ZCreateKey>) {
  const ownerExists = body.restaurantId
    ? await findRestaurantById(deps.db, body.restaurantId)
    : await findIntegratorOrgById(deps.db, body.integratorOrgId!);
  if (!ownerExists) {
    const param = body.restaurantId ? 'restaurantId' : 'integratorOrgId';
    throw new AppError('invalid_request', `${param}: no such owner.`, { param });
  }
  const tooBroad = body.allowedOrigins?.find(isWildcardTooBroad);
  if (tooBroad) {
    throw new AppError('invalid_request', `allowedOrigins: ${tooBroad} would allow every site under a public suffix.`, {
      param: 'allowedOrigins',
    });
  }
  if (body.expiresAt && new Date(body.expiresAt) <= deps.now()) {
    throw new AppError('invalid_request', 'expiresAt: must be in the future.', { param: 'expiresAt' });
  }
  const generated = generateApiKey(body.type, body.environment);
  const row = await deps.db.transaction().execute(async (tx) => {
    // Test keys read live menus unmetered: an owner has a handful, not an unlimited supply.
    const managed = body.restaurantId ? [...managedKeyHashes(deps, body.restaurantId).keys()] : [];
    if (body.environment === 'test' && (await lockOwnerTestKeys(tx, body, deps.now(), managed)) >= MAX_TEST_KEYS_PER_OWNER) {
      throw new AppError('key_limit_reached', `An account may have ${MAX_TEST_KEYS_PER_OWNER} active test keys. Revoke one first.`);
    }
    return insertApiKey(tx, {
      id: newId('key'),
      key_hash: generated.hash,
      prefix: generated.prefix,
      last4: generated.last4,
      type: body.type,
      environment: body.environment,
      name: body.name,
      scopes: body.type === 'secret' ? [...(body.scopes ?? DEFAULT_SECRET_SCOPES)] : [],
      rate_limit_per_min: body.environment === 'test' ? TEST_KEY_LIMITS.perMinute : (body.rateLimitPerMin ?? DEFAULT_LIVE_RATE_PER_MIN),
      allowed_origins: body.allowedOrigins ?? [],
      restaurant_id: body.restaurantId ?? null,
      integrator_org_id: body.integratorOrgId ?? null,
      expires_at: body.expiresAt ? new Date(body.expiresAt) : null,
    });
  });
  return { ...presentKey(row), value: generated.value };
}

export async function listKeys(deps: ConsoleDeps, owner: { restaurantId?: string; integratorOrgId?: string }) {
  if (!owner.restaurantId && !owner.integratorOrgId) {
    throw new AppError('invalid_request', 'Filter by restaurantId or integratorOrgId.', { param: 'restaurantId' });
  }
  const managed = owner.restaurantId ? managedKeyHashes(deps, owner.restaurantId) : new Map<string, 'menu-page' | 'dashboard-preview'>();
  const rows = await listApiKeysByOwner(deps.db, owner);
  const lastUsed = await readKeysLastUsed(
    deps.redis,
    deps.redisPrefix,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...presentKey(row),
    lastUsedAt: lastUsed.get(row.id)?.toISOString() ?? null,
    managedBy: managed.get(row.key_hash) ?? null,
  }));
}

/**
 * Revocation is immediate on every gateway replica (pub/sub) and idempotent here. A person reaches the
 * key through its owner and may not revoke one the platform manages: one read of the key answers both.
 * Operators reach every key, managed ones too, without that read.
 */
export async function revokeKey(deps: ConsoleDeps, actor: ConsoleActor, id: string) {
  if (actor.kind === 'account') refuseManagedKey(deps, reachKey(actor, await findApiKeyById(deps.db, id)));
  const row = await revokeApiKey(deps.db, id, deps.now());
  if (!row) throw new AppError('not_found', 'No such key.');
  await keyInvalidations.publish(deps.redis, deps.redisPrefix, { keyId: id });
  return presentKey(row);
}
