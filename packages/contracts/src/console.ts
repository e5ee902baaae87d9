// The console API's bodies (the dashboard's backend, docs/console-api.md): `@partner/contracts/console`,
// used inside the platform only; the published package does not export it (its entry is the public API).
import { z } from 'zod';
import { zId } from './ids.js';
import { ZEnvironment, ZKeyType, ZScope } from './keys.js';
import { ZOriginPattern } from './origins.js';
import { ZCurrency, ZItemStatus, ZRestaurant, ZTimestamp } from './resources.js';

const ZSlug = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case letters, digits and single dashes');
const ZName = z.string().trim().min(1).max(200);
const ZCount = z.number().int().min(0).max(1_000_000_000);

export const ZCreateRestaurant = z.strictObject({
  name: ZName,
  slug: ZSlug,
  currency: ZCurrency.default('USD'),
  publicMenuUrl: z.url({ protocol: /^https?$/ }).nullish(),
  houseNotes: z.string().max(10_000).nullish(),
  contactEmail: z.email().max(320).nullish(),
});

export const ZUpdateRestaurant = z.strictObject({
  name: ZName.optional(),
  publicMenuUrl: z.url({ protocol: /^https?$/ }).nullish(),
  subscriptionStatus: z.enum(['active', 'lapsed']).optional(),
  partnerApiAddon: z.boolean().optional(),
  conciergeAddon: z.boolean().optional(),
  conciergeEnabled: z.boolean().optional(),
  suspended: z.boolean().optional(),
  monthlyQuota: ZCount.optional(),
  overageBudget: ZCount.optional(),
  conciergeAllowance: ZCount.optional(),
  concierge: z
    .strictObject({
      displayName: z.string().trim().min(1).max(80).optional(),
      welcomeMessage: z.string().trim().min(1).max(500).optional(),
    })
    .optional(),
  houseNotes: z.string().max(10_000).nullish(),
  contactEmail: z.email().max(320).nullish(),
  /** The public menu page; off, its page answers 404 and its publishable key is revoked. */
  menuPageEnabled: z.boolean().optional(),
});

/** The dashboard's view of a restaurant: the public fields plus every setting. */
export const ZConsoleRestaurant = ZRestaurant.extend({
  houseNotes: z.string().nullable(),
  subscriptionStatus: z.enum(['active', 'lapsed']),
  partnerApiAddon: z.boolean(),
  conciergeAddon: z.boolean(),
  conciergeEnabled: z.boolean(),
  suspended: z.boolean(),
  monthlyQuota: z.number().int(),
  overageBudget: z.number().int(),
  conciergeAllowance: z.number().int(),
  concierge: z.object({ displayName: z.string(), welcomeMessage: z.string() }),
  contactEmail: z.string().nullable(),
  menuPageEnabled: z.boolean(),
});
export type TConsoleRestaurant = z.infer<typeof ZConsoleRestaurant>;

export const ZUsage = z.object({
  periodStart: ZTimestamp,
  periodEnd: ZTimestamp,
  apiRequests: z.object({ used: z.number().int(), included: z.number().int(), overageBudget: z.number().int() }),
  conciergeMessages: z.object({ used: z.number().int(), allowance: z.number().int() }),
  /** Loads of the 3D viewer embed with live keys (each is also one of the API requests above). */
  embedViews: z.object({ used: z.number().int() }),
});
export type TUsage = z.infer<typeof ZUsage>;

export const ZCreateSection = z.strictObject({ name: ZName, position: z.number().int().min(0).max(10_000).optional() });

const ZTags = z.array(z.string().trim().min(1).max(40)).max(50);
export const ZCreateItem = z.strictObject({
  name: ZName,
  slug: ZSlug.optional(),
  description: z.string().max(5000).nullish(),
  priceCents: z.number().int().min(0).max(100_000_000),
  status: ZItemStatus.default('published'),
  sectionId: zId('sec').nullish(),
  dietaryTags: ZTags.default([]),
  allergens: ZTags.default([]),
});
export const ZUpdateItem = z.strictObject({
  name: ZName.optional(),
  slug: ZSlug.optional(),
  description: z.string().max(5000).nullish(),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  status: ZItemStatus.optional(),
  sectionId: zId('sec').nullish(),
  dietaryTags: ZTags.optional(),
  allergens: ZTags.optional(),
});

export const ZCreateIntegrator = z.strictObject({ name: ZName, slug: ZSlug, contactEmail: z.email().max(320).nullish() });
export const ZUpdateIntegrator = z.strictObject({
  name: ZName.optional(),
  suspended: z.boolean().optional(),
  contactEmail: z.email().max(320).nullish(),
});
export const ZIntegratorOrg = z.object({
  id: zId('org'),
  name: z.string(),
  slug: z.string(),
  suspended: z.boolean(),
  contactEmail: z.string().nullable(),
  createdAt: ZTimestamp,
});
export type TIntegratorOrg = z.infer<typeof ZIntegratorOrg>;

export const ZCreateKey = z
  .strictObject({
    restaurantId: zId('rst').optional(),
    integratorOrgId: zId('org').optional(),
    type: ZKeyType,
    environment: ZEnvironment,
    name: ZName,
    scopes: z.array(ZScope).max(10).optional(),
    rateLimitPerMin: z.number().int().min(1).max(100_000).optional(),
    allowedOrigins: z.array(ZOriginPattern).max(100).optional(),
    expiresAt: ZTimestamp.optional(),
  })
  .superRefine((body, ctx) => {
    if (Boolean(body.restaurantId) === Boolean(body.integratorOrgId)) {
      ctx.addIssue({ code: 'custom', path: ['restaurantId'], message: 'give exactly one of restaurantId or integratorOrgId' });
    }
    if (body.type === 'publishable' && body.scopes?.length) {
      ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'publishable keys carry no scopes' });
    }
    if (body.type === 'publishable' && !body.allowedOrigins?.length) {
      ctx.addIssue({ code: 'custom', path: ['allowedOrigins'], message: 'publishable keys need at least one allowed origin' });
    }
    if (body.type === 'secret' && body.allowedOrigins?.length) {
      ctx.addIssue({ code: 'custom', path: ['allowedOrigins'], message: 'only publishable keys have an origin allow-list' });
    }
  });

export const ZConsoleKey = z.object({
  id: zId('key'),
  restaurantId: z.string().nullable(),
  integratorOrgId: z.string().nullable(),
  type: ZKeyType,
  environment: ZEnvironment,
  name: z.string(),
  scopes: z.array(ZScope),
  rateLimitPerMin: z.number().int(),
  allowedOrigins: z.array(z.string()),
  /** Enough to recognise a key in a list without revealing it: prefix and last four characters. */
  redacted: z.string(),
  expiresAt: ZTimestamp.nullable(),
  revokedAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
  /** In listings: when the key was last used, to the minute (null: not in the last 90 days). */
  lastUsedAt: ZTimestamp.nullable().optional(),
  /** In listings: a key the platform derives and manages (the public menu page's, the dashboard's preview). */
  managedBy: z.enum(['menu-page', 'dashboard-preview']).nullable().optional(),
});
export type TConsoleKey = z.infer<typeof ZConsoleKey>;
/** Only the create response carries `value`, the plaintext key. */
export const ZCreatedKey = ZConsoleKey.extend({ value: z.string() });

export const ZCreateConnectLink = z.strictObject({
  scopes: z.array(ZScope).min(1).optional(),
  expiresInSeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .optional(),
});
export const ZConnectLink = z.object({ token: z.string(), url: z.string(), expiresAt: ZTimestamp });
export type TConnectLink = z.infer<typeof ZConnectLink>;
export const ZApproveConnectLink = z.strictObject({ restaurantId: zId('rst') });

export const ZGrant = z.object({
  id: zId('grt'),
  restaurantId: zId('rst'),
  integratorOrgId: zId('org'),
  scopes: z.array(ZScope),
  status: z.enum(['active', 'revoked']),
  createdAt: ZTimestamp,
  revokedAt: ZTimestamp.nullable(),
  /** In listings: the two sides' names. */
  restaurantName: z.string().optional(),
  integratorName: z.string().optional(),
});
export type TGrant = z.infer<typeof ZGrant>;

export const ZKillSwitch = z.strictObject({ concierge: z.boolean() });

// The dashboard's people: sign-in, sessions and team members.
const ZEmail = z
  .email()
  .max(320)
  .transform((email) => email.toLowerCase());
/** NIST SP 800-63B: at least 12 characters here, long passphrases welcome, no composition rules. */
export const ZNewPassword = z.string().min(12, 'must be at least 12 characters').max(256);

export const ZPasswordSignIn = z.strictObject({ email: ZEmail, password: z.string().min(1).max(256) });
export const ZSignInLinkRequest = z.strictObject({ email: ZEmail });
export const ZSignInLinkRedeem = z.strictObject({ token: z.string().min(1).max(200) });
export const ZSetPassword = z.strictObject({ password: ZNewPassword, currentPassword: z.string().min(1).max(256).optional() });
export const ZRole = z.enum(['owner', 'member']);
export type TRole = z.infer<typeof ZRole>;
export const ZInviteMember = z.strictObject({ email: ZEmail, name: ZName.optional(), role: ZRole.default('member') });

export const ZMembership = z.object({
  kind: z.enum(['restaurant', 'integrator']),
  id: z.string(),
  name: z.string(),
  role: ZRole,
});
/** `GET /console/session`: who is signed in, what they may manage, and the token their changes carry. */
export const ZSession = z.object({
  /** The admin token's holder: no account, every restaurant and integrator. */
  operator: z.boolean(),
  account: z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), hasPassword: z.boolean() }).nullable(),
  memberships: z.array(ZMembership),
  csrfToken: z.string().nullable(),
  expiresAt: ZTimestamp.nullable(),
});
export type TSession = z.infer<typeof ZSession>;

export const ZMember = z.object({ accountId: z.string(), email: z.string(), name: z.string().nullable(), role: ZRole, since: ZTimestamp });
export type TMember = z.infer<typeof ZMember>;
