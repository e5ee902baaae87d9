import { generateInternalKeyPair, INTERNAL_TOKEN_HEADER, signInternalToken, type OwnerRef, type Principal } from '@partner/auth';
import type { TEnvironment, TKeyType, TScope } from '@partner/contracts';

/**
 * Plays the gateway towards one service in its own tests: a key pair whose public half the service
 * is built with, and the internal-token header for any principal.
 */
export function internalCaller(audience: string) {
  const pair = generateInternalKeyPair();
  return {
    publicKey: pair.publicKey,
    headers: (principal: Principal): Record<string, string> => ({
      [INTERNAL_TOKEN_HEADER]: signInternalToken(pair.privateKey, principal, audience),
    }),
  };
}

/** A key principal as the gateway would establish it: a live secret key with every scope unless told otherwise. */
export function keyPrincipalFor(
  owner: OwnerRef,
  overrides: { keyId?: string; keyType?: TKeyType; environment?: TEnvironment; scopes?: TScope[] } = {},
): Principal {
  return {
    kind: 'key',
    keyId: overrides.keyId ?? 'key_test000000000000000000',
    keyType: overrides.keyType ?? 'secret',
    environment: overrides.environment ?? 'live',
    scopes: overrides.scopes ?? ['menu:read', 'assets:read', 'webhooks:manage', 'concierge:chat'],
    owner,
  };
}
