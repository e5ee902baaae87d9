import type { TKeyMetadata } from '@partner/contracts';
import { asScopes } from '@partner/auth';
import type { AuthenticatedKey } from '../auth/key-cache.js';
import { limitsFor } from '../rate-limit/rate-limiter.js';

/** Spec 2.2: what the calling key is, answered by the gateway without a service hop. */
export function presentKeyMetadata(key: AuthenticatedKey, docsUrl: string): TKeyMetadata {
  const owner = { id: key.owner.id, name: key.owner.name, slug: key.owner.slug };
  return {
    keyId: key.key.id,
    type: key.key.type === 'secret' ? 'SECRET' : 'PUBLISHABLE',
    environment: key.environment === 'live' ? 'LIVE' : 'TEST',
    name: key.key.name,
    scopes: asScopes(key.key.scopes),
    rateLimitPerMin: limitsFor(key.key).perMinute,
    restaurant: key.owner.kind === 'restaurant' ? owner : null,
    integratorOrg: key.owner.kind === 'integrator' ? owner : null,
    docsUrl,
  };
}
