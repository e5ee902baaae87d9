import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { accessInvalidations, keyInvalidations, newId } from '@partner/http';
import { asScopes, randomBase62 } from '@partner/auth';
import {
  consumeConnectLink,
  findActiveGrant,
  lockGrantPair,
  findGrantById,
  findUsableConnectLink,
  insertConnectLink,
  listPendingConnectLinks,
  insertGrant,
  revokeGrant,
  updateGrantScopes,
} from './grants.repository.js';
import { findIntegratorOrgById, insertIntegratorOrg, listIntegratorOrgs, updateIntegratorOrg } from './integrators.repository.js';
import { type Executor, findRestaurantById, type GrantRow, insertOutboxEvent, type IntegratorOrgRow, isUniqueViolation } from '@partner/db';
import { AppError } from '@partner/contracts';
import type {
  TConnectLink,
  TGrant,
  TIntegratorOrg,
  ZApproveConnectLink,
  ZCreateConnectLink,
  ZCreateIntegrator,
  ZUpdateIntegrator,
} from '@partner/contracts/console';
import type { ConsoleDeps } from '../deps.js';

const DEFAULT_GRANT_SCOPES = ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'];
const CONNECT_LINK_LIFETIME_SECONDS = 7 * 24 * 3600;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const presentIntegrator = (row: IntegratorOrgRow): TIntegratorOrg => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  suspended: row.suspended,
  contactEmail: row.contact_email,
  createdAt: row.created_at.toISOString(),
});

export const presentGrant = (row: GrantRow): TGrant => ({
  id: row.id,
  restaurantId: row.restaurant_id,
  integratorOrgId: row.integrator_org_id,
  scopes: asScopes(row.scopes),
  status: row.status,
  createdAt: row.created_at.toISOString(),
  revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
});

/** A listed grant: also the names of the restaurant and the integrator. */
export const presentNamedGrant = (row: GrantRow & { restaurant_name: string; integrator_name: string }): TGrant => ({
  ...presentGrant(row),
  restaurantName: row.restaurant_name,
  integratorName: row.integrator_name,
});

export async function createIntegrator(deps: ConsoleDeps, body: z.infer<typeof ZCreateIntegrator>) {
  try {
    return presentIntegrator(
      await insertIntegratorOrg(deps.db, { id: newId('org'), name: body.name, slug: body.slug, contact_email: body.contactEmail ?? null }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('conflict', `An integrator with slug "${body.slug}" already exists.`, { param: 'slug' });
    throw err;
  }
}

/** The integrator orgs given (every one when null), by name. */
export async function listIntegrators(deps: ConsoleDeps, ids: string[] | null) {
  return (await listIntegratorOrgs(deps.db, ids)).map(presentIntegrator);
}

export async function getIntegrator(deps: ConsoleDeps, id: string) {
  const row = await findIntegratorOrgById(deps.db, id);
  if (!row) throw new AppError('not_found', 'No such integrator.');
  return presentIntegrator(row);
}

export async function patchIntegrator(deps: ConsoleDeps, id: string, body: z.infer<typeof ZUpdateIntegrator>) {
  const row = await updateIntegratorOrg(deps.db, id, { name: body.name, suspended: body.suspended, contact_email: body.contactEmail });
  if (!row) throw new AppError('not_found', 'No such integrator.');
  if (body.suspended !== undefined) await keyInvalidations.publish(deps.redis, deps.redisPrefix, { ownerId: id });
  return presentIntegrator(row);
}

/** A link the integrator sends to an owner; its token is shown once and stored only as a hash. */
export async function createConnectLink(
  deps: ConsoleDeps,
  integratorOrgId: string,
  body: z.infer<typeof ZCreateConnectLink>,
): Promise<TConnectLink> {
  if (!(await findIntegratorOrgById(deps.db, integratorOrgId))) throw new AppError('not_found', 'No such integrator.');
  const token = `cl_${randomBase62(32)}`;
  const expiresAt = new Date(deps.now().getTime() + (body.expiresInSeconds ?? CONNECT_LINK_LIFETIME_SECONDS) * 1000);
  await insertConnectLink(deps.db, {
    token_hash: hashToken(token),
    integrator_org_id: integratorOrgId,
    scopes: body.scopes ?? DEFAULT_GRANT_SCOPES,
    expires_at: expiresAt,
  });
  return { token, url: new URL(`/connect/${token}`, deps.publicUrl).toString(), expiresAt: expiresAt.toISOString() };
}

/** What the consent screen shows before an owner approves: who asks, for what, until when. */
export async function previewConnectLink(deps: ConsoleDeps, token: string) {
  const link = await findUsableConnectLink(deps.db, hashToken(token), deps.now());
  const integrator = link && (await findIntegratorOrgById(deps.db, link.integrator_org_id));
  if (!link || !integrator) throw new AppError('not_found', 'No such connect link, or it was already used or has expired.');
  return {
    integrator: { id: integrator.id, name: integrator.name },
    scopes: asScopes(link.scopes),
    expiresAt: link.expires_at.toISOString(),
  };
}

/** Links the integrator made that no owner has used yet; their tokens were shown once, at creation. */
export async function pendingConnectLinks(deps: ConsoleDeps, integratorOrgId: string) {
  const links = await listPendingConnectLinks(deps.db, integratorOrgId, deps.now());
  return links.map((link) => ({
    scopes: asScopes(link.scopes),
    createdAt: link.created_at.toISOString(),
    expiresAt: link.expires_at.toISOString(),
  }));
}

/**
 * The owner consents: the link is spent and the integrator's grant for this restaurant becomes (or
 * stays) active. An unknown, used or expired link is 404 alike.
 */
export async function approveConnectLink(deps: ConsoleDeps, token: string, body: z.infer<typeof ZApproveConnectLink>) {
  const grant = await deps.db.transaction().execute(async (tx) => {
    if (!(await findRestaurantById(tx, body.restaurantId))) {
      throw new AppError('invalid_request', 'restaurantId: no such restaurant.', { param: 'restaurantId' });
    }
    const link = await consumeConnectLink(tx, hashToken(token), deps.now());
    if (!link) throw new AppError('not_found', 'No such connect link, or it was already used or has expired.');
    await lockGrantPair(tx, body.restaurantId, link.integrator_org_id);
    const existing = await findActiveGrant(tx, body.restaurantId, link.integrator_org_id);
    if (existing) {
      const scopes = [...new Set([...existing.scopes, ...link.scopes])];
      return presentGrant(await updateGrantScopes(tx, existing.id, scopes));
    }
    const grant = await insertGrant(tx, {
      id: newId('grt'),
      restaurant_id: body.restaurantId,
      integrator_org_id: link.integrator_org_id,
      scopes: link.scopes,
    });
    await recordGrantEvent(tx, 'grant.activated', grant);
    return presentGrant(grant);
  });
  // A grant's scopes are cached with item lookups in the catalog.
  await accessInvalidations.publish(deps.redis, deps.redisPrefix, { restaurantId: grant.restaurantId });
  return grant;
}

/** Revoking is idempotent: a grant already revoked is returned as it is (and no second event). */
export async function revokeGrantById(deps: ConsoleDeps, id: string) {
  const revoked = await deps.db.transaction().execute(async (tx) => {
    const row = await revokeGrant(tx, id, deps.now());
    if (row) await recordGrantEvent(tx, 'grant.revoked', row);
    return row;
  });
  const current = revoked ?? (await findGrantById(deps.db, id));
  if (!current) throw new AppError('not_found', 'No such grant.');
  // Also when it was revoked already: a retry after a failed publish must still reach the replicas.
  await accessInvalidations.publish(deps.redis, deps.redisPrefix, { restaurantId: current.restaurant_id });
  return presentGrant(current);
}

/** grant.* events go to the integrator they concern, written with the change (spec 6.1). */
async function recordGrantEvent(tx: Executor, type: 'grant.activated' | 'grant.revoked', grant: GrantRow): Promise<void> {
  await insertOutboxEvent(tx, {
    id: newId('evt'),
    type,
    restaurantId: grant.restaurant_id,
    integratorOrgId: grant.integrator_org_id,
    data: { grantId: grant.id, restaurantId: grant.restaurant_id, integratorOrgId: grant.integrator_org_id },
  });
}
