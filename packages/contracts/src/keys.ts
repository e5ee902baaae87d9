import { z } from 'zod';
import { zId } from './ids.js';

export const KEY_TYPES = ['secret', 'publishable'] as const;
export const ZKeyType = z.enum(KEY_TYPES);
export type TKeyType = z.infer<typeof ZKeyType>;

export const ENVIRONMENTS = ['live', 'test'] as const;
export const ZEnvironment = z.enum(ENVIRONMENTS);
export type TEnvironment = z.infer<typeof ZEnvironment>;

/** Spec 5.3. `analytics:read` is reserved: a key may hold it, no route grants anything for it yet. */
export const SCOPES = ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat', 'analytics:read'] as const;
export const ZScope = z.enum(SCOPES);
export type TScope = z.infer<typeof ZScope>;

export const ZOwnerRef = z.object({ id: z.string(), name: z.string(), slug: z.string() });

/** Spec 2.2: `GET /partner/me`. Type and environment are upper-case on this wire only. */
export const ZKeyMetadata = z.object({
  keyId: zId('key'),
  type: z.enum(['SECRET', 'PUBLISHABLE']),
  environment: z.enum(['LIVE', 'TEST']),
  name: z.string(),
  scopes: z.array(ZScope),
  rateLimitPerMin: z.number().int().positive(),
  restaurant: ZOwnerRef.nullable(),
  integratorOrg: ZOwnerRef.nullable(),
  docsUrl: z.string(),
});
export type TKeyMetadata = z.infer<typeof ZKeyMetadata>;
