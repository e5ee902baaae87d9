import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TWebhookSignatureScheme } from '@partner/contracts';
import type { Owner } from '@partner/db';
import { generateWebhookSecret } from '@partner/signing';
import { useTestDatabase } from '@partner/testing';
import { sealEndpointSecret } from '../endpoints/endpoint-secrets.js';
import { type Received, startReceiver } from '../testing/receiver.js';
import { verifyWithStandardWebhooks, verifyWithStripe, verifyWithSvix } from '../testing/receiver-libraries.js';
import { arrangeEndpoint, arrangeOwner, emitItemUpdated, TEST_SEALING_KEYS, testDispatcher } from '../testing/webhook-fixtures.js';
import { rotateWebhookEndpointSecret } from '../webhooks.repository.js';
import type { Dispatcher } from './dispatcher.js';
import { WebhookSender } from './sender.js';

// Real deliveries, made by the dispatcher to a receiver on loopback, verified with the libraries
// receivers use: stripe's constructEvent for the default scheme (its header has the same form), the
// standardwebhooks reference library and svix's for Standard Webhooks.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sender: WebhookSender;
let dispatcher: Dispatcher;
beforeAll(async () => {
  database = await useTestDatabase();
  // The first delivery to a path ending in /flaky fails, so that a retry can be compared with it.
  receiver = await startReceiver((received: Received, earlier: Received[]) => ({
    status: received.path.endsWith('/flaky') && !earlier.some((other) => other.path === received.path) ? 500 : 204,
  }));
  sender = new WebhookSender({ allowPrivate: true }, () => new Date());
  // A retry is due at once (a base of 1 ms), so that a second tick makes it.
  dispatcher = testDispatcher(database.db, sender, 1);
});
afterAll(async () => {
  await sender.close();
  await receiver.close();
  await database.drop();
});

let paths = 0;
/** A restaurant's endpoint at a path of its own on the receiver, with the scheme and secret given. */
async function endpointWith(signatureScheme: TWebhookSignatureScheme, options: { secret?: string; flaky?: boolean } = {}) {
  const { owner } = await arrangeOwner(database.db);
  const secret = options.secret ?? generateWebhookSecret();
  const path = `/endpoint-${++paths}${options.flaky ? '/flaky' : ''}`;
  const endpoint = await arrangeEndpoint(database.db, owner, { url: receiver.url(path), signatureScheme, secret });
  return { owner, endpoint, secret, path };
}

/** One item.updated of the owner, delivered; what the receiver got at the path. */
async function deliverOne(owner: Owner, path: string): Promise<Received[]> {
  await emitItemUpdated(database.db, owner);
  await dispatcher.tick();
  return receiver.at(path);
}

describe('the default scheme (X-Service-Signature)', () => {
  it("verifies with stripe's constructEvent, and carries no Standard Webhooks headers", async () => {
    const { owner, endpoint, secret, path } = await endpointWith('x-service-signature');
    const [hit] = await deliverOne(owner, path);
    const event = verifyWithStripe(hit!, secret) as { id: string; type: string; data: { restaurantId: string } };
    expect(event).toMatchObject({ type: 'item.updated', data: { restaurantId: owner.id } });
    expect(hit!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(hit!.headers).not.toHaveProperty('webhook-signature');
    expect(() => verifyWithStripe(hit!, generateWebhookSecret())).toThrow();
    expect(endpoint.signature_scheme).toBe('x-service-signature');
  });
});

describe('the Standard Webhooks scheme', () => {
  it('verifies with the standardwebhooks and svix libraries, and carries no X-Service-Signature', async () => {
    const { owner, secret, path } = await endpointWith('standard-webhooks');
    const [hit] = await deliverOne(owner, path);
    const event = verifyWithStandardWebhooks(hit!, secret) as { id: string; type: string };
    expect(event).toMatchObject({ type: 'item.updated' });
    expect(() => verifyWithSvix(hit!, secret)).not.toThrow();
    expect(hit!.headers['webhook-id']).toBe(event.id);
    expect(hit!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(hit!.headers['x-service-event']).toBe('item.updated');
    expect(hit!.headers).not.toHaveProperty('x-service-signature');
    expect(() => verifyWithStandardWebhooks(hit!, generateWebhookSecret())).toThrow();
    expect(() => verifyWithSvix(hit!, generateWebhookSecret())).toThrow();
  });

  it('keeps webhook-id across retries (the event id receivers deduplicate on); each attempt has its own delivery id', async () => {
    const { owner, secret, path } = await endpointWith('standard-webhooks', { flaky: true });
    await deliverOne(owner, path);
    await dispatcher.tick();
    const [failed, retried] = receiver.at(path);
    expect(retried).toBeDefined();
    expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
    expect(retried!.headers['x-service-delivery']).not.toBe(failed!.headers['x-service-delivery']);
    expect(verifyWithStandardWebhooks(retried!, secret)).toMatchObject({ id: failed!.headers['webhook-id'] });
  });

  it('verifies with a secret made before secrets were base64 (32 base62 characters)', async () => {
    const legacy = 'whsec_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
    const { owner, path } = await endpointWith('standard-webhooks', { secret: legacy });
    const [hit] = await deliverOne(owner, path);
    expect(verifyWithStandardWebhooks(hit!, legacy)).toMatchObject({ type: 'item.updated' });
    expect(() => verifyWithSvix(hit!, legacy)).not.toThrow();
  });
});

describe('during a secret rotation', () => {
  it.each(['x-service-signature', 'standard-webhooks'] as const)(
    '%s carries a signature per valid secret: receivers holding either verify',
    async (scheme) => {
      const { owner, endpoint, secret: previous, path } = await endpointWith(scheme);
      const current = generateWebhookSecret();
      await rotateWebhookEndpointSecret(database.db, endpoint.id, {
        sealedSecret: sealEndpointSecret(TEST_SEALING_KEYS, endpoint.id, current),
        previousUntil: new Date(Date.now() + 3600_000),
      });
      const [hit] = await deliverOne(owner, path);
      for (const secret of [current, previous]) {
        if (scheme === 'x-service-signature') {
          expect(verifyWithStripe(hit!, secret)).toMatchObject({ type: 'item.updated' });
        } else {
          expect(verifyWithStandardWebhooks(hit!, secret)).toMatchObject({ type: 'item.updated' });
          expect(() => verifyWithSvix(hit!, secret)).not.toThrow();
        }
      }
      const header = String(hit!.headers[scheme === 'x-service-signature' ? 'x-service-signature' : 'webhook-signature']);
      expect(header.match(/v1[=,]/g)).toHaveLength(2);
    },
  );
});
