import type { TScope } from '@partner/contracts';

export const hasScope = (scopes: readonly string[], needed: TScope): boolean => scopes.includes(needed);

/** Scopes a new secret key gets when none are named: everything available today. */
export const DEFAULT_SECRET_SCOPES: readonly TScope[] = ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'];

/** Stored scopes were validated when the key or grant was made; the column is plain text[]. */
export const asScopes = (values: string[]): TScope[] => values as TScope[];
