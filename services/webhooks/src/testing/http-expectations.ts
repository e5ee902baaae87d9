import request from 'supertest';
import { expect } from 'vitest';
import { generateInternalKeyPair, INTERNAL_TOKEN_HEADER, type Principal, signInternalToken } from '@partner/auth';
import { expectError, internalCaller } from '@partner/testing';
import { createApp } from '../app.js';
import type { Route, WebhooksHarness } from './app-harness.js';

/**
 * Only the gateway's token for this service gets in: no token, a token for another audience (signed by
 * the key the service trusts) or a token signed by any other key is 401 `unauthorized`.
 */
export async function expectGatewayOnly(harness: WebhooksHarness, [method, path]: Route, principal: Principal): Promise<void> {
  expectError(await request(harness.app)[method](path), 401, 'unauthorized');
  expectError(await request(harness.app)[method](path).set(internalCaller('webhooks').headers(principal)), 401, 'unauthorized');

  const gateway = generateInternalKeyPair();
  const app = createApp({ ...harness.deps, internalPublicKey: gateway.publicKey });
  const tokenFor = (audience: string) => ({ [INTERNAL_TOKEN_HEADER]: signInternalToken(gateway.privateKey, principal, audience) });
  expectError(await request(app)[method](path).set(tokenFor('catalog')), 401, 'unauthorized');
  // The same key and principal for the right audience do get in: the audience alone was refused above.
  const reached = (await request(app)[method](path).set(tokenFor('webhooks'))).status;
  expect(reached).not.toBe(401);
  expect(reached).toBeLessThan(500);
}

export { expectError };
