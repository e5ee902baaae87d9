import type { TEnvironment, TKeyType, TScope } from '@partner/contracts';

export type OwnerRef = { kind: 'restaurant' | 'integrator'; id: string };

/** Who is calling, as the gateway established it. Services trust this and nothing the client sent. */
export type Principal =
  | {
      kind: 'key';
      keyId: string;
      keyType: TKeyType;
      environment: TEnvironment;
      scopes: TScope[];
      owner: OwnerRef;
      requestId: string;
    }
  /** A route that needs no key (signed asset files): the gateway vouches only for the request id. */
  | { kind: 'public'; requestId: string };

export type KeyPrincipal = Extract<Principal, { kind: 'key' }>;
