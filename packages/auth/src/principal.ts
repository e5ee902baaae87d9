import type { TEnvironment, TKeyType, TScope } from '@partner/contracts';

export type OwnerRef = { kind: 'restaurant' | 'integrator'; id: string };

/**
 * Who is calling, as the gateway established it. Services trust this and nothing the client sent.
 * The request id travels beside it in X-Request-Id, so one token serves every request of a key.
 */
export type Principal =
  | {
      kind: 'key';
      keyId: string;
      keyType: TKeyType;
      environment: TEnvironment;
      scopes: TScope[];
      owner: OwnerRef;
    }
  /** A route that needs no key (signed asset files). */
  | { kind: 'public' }
  /** Platform staff through console (the dashboard's backend): acts for any owner on operator routes. */
  | { kind: 'operator' }
  /** A person signed in to the dashboard, acting through console for one owner they may manage. */
  | { kind: 'owner'; owner: OwnerRef };

export type KeyPrincipal = Extract<Principal, { kind: 'key' }>;
/** Acts for one owner: an API key, or a signed-in person through console. */
export type OwnerPrincipal = Extract<Principal, { kind: 'key' | 'owner' }>;
