import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZWebhookEndpointWithSecret, zData } from '@partner/contracts';
import { insertOutboxEvent } from '@partner/db';
import { newId, silentLogger } from '@partner/http';
import { verifyWebhook } from '@partner/sdk';
import { SealingKeys } from '@partner/signing';
import { createApp } from './app.js';
import { WebhookSender } from './dispatcher/sender.js';
import { openEndpointSecret, resealEndpointSecrets } from './endpoints/endpoint-secrets.js';
import { startWebhooksHarness, type WebhooksHarness } from './testing/app-harness.js';
import { expectError } from './testing/http-expectations.js';
import {
  arrangeOwner,
  findEndpointRow,
  PUBLIC_TARGET,
  storedSecrets,
  TEST_SEALING_KEYS,
  testDispatcher,
  TEST_SEALING_SPEC,
} from './testing/webhook-fixtures.js';
import { insertWebhookEndpoint } from './webhooks.repository.js';

const base = '/v1/partner/webhook-endpoints';

let h: WebhooksHarness;
beforeAll(async () => {
  h = await startWebhooksHarness();
});
afterAll(() => h.close());

/** A new owner's endpoint, registered through the door (with an Idempotency-Key when given). */
async function register(idempotencyKey?: string) {
  const { owner, principal } = await arrangeOwner(h.deps.db);
  const post = () => {
    const req = h.as(principal).post(base).send({ url: PUBLIC_TARGET });
    return idempotencyKey ? req.set('Idempotency-Key', idempotencyKey) : req;
  };
  const res = await post();
  expect(res.status).toBe(201);
  return { owner, principal, post, endpoint: zData(ZWebhookEndpointWithSecret).parse(res.body).data };
}

/** The answer stored for an Idempotency-Key (each test's key is unique). */
async function storedAnswer(idempotencyKey: string): Promise<string> {
  const record = await h.deps.db
    .selectFrom('idempotency_records')
    .select('response_body')
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirstOrThrow();
  return record.response_body!;
}

const inClear = (secret: string) => secret.slice('whsec_'.length);

describe('webhook signing secrets at rest', () => {
  it('are stored sealed and bound to their endpoint: copied to another endpoint, a sealed secret does not open', async () => {
    const { endpoint } = await register();
    const { endpoint: other } = await register();
    const row = await findEndpointRow(h.deps.db, endpoint.id);
    expect(row.secret).toMatch(/^sealed1:test:/);
    expect(row.secret).not.toContain(inClear(endpoint.secret));
    expect(openEndpointSecret(TEST_SEALING_KEYS, endpoint.id, row.secret)).toBe(endpoint.secret);
    expect(() => openEndpointSecret(TEST_SEALING_KEYS, other.id, row.secret)).toThrow();
  });

  it('are sealed in the stored Idempotency-Key answer too, and a retry gets the same secret back', async () => {
    const key = newId('idem');
    const { post, endpoint } = await register(key);
    // The answer is stored as the response goes out: on a loaded machine the read may come first.
    await expect.poll(() => storedAnswer(key)).toMatch(/^sealed1:test:/);
    const stored = await storedAnswer(key);
    expect(stored).not.toContain(inClear(endpoint.secret));
    const replay = await post();
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data).toEqual(endpoint);
  });

  it('answer a retry whose stored answer no configured key opens with 503 and Retry-After, not a 500', async () => {
    const key = newId('idem');
    const { principal, endpoint } = await register(key);
    const app = createApp({ ...h.deps, sealing: SealingKeys.parse(SealingKeys.generateSpec('other')) });
    const res = await request(app).post(base).set(h.caller.headers(principal)).set('Idempotency-Key', key).send({ url: PUBLIC_TARGET });
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('60');
    expect(JSON.stringify(res.body)).not.toContain(inClear(endpoint.secret));
  });

  it('are sealed again under a new key after a rotation, as are secrets stored in clear before sealing', async () => {
    const { endpoint } = await register();
    const { principal, endpoint: rotating } = await register();
    const rotated = await h.as(principal).post(`${base}/${rotating.id}/rotate-secret`).send({ overlapSeconds: 3600 });
    expect(rotated.status).toBe(200);
    const clear = 'whsec_storedInClearBeforeSealingBegan00';
    const legacy = await insertWebhookEndpoint(h.deps.db, {
      id: newId('we'),
      owner: (await arrangeOwner(h.deps.db)).owner,
      url: PUBLIC_TARGET,
      enabledEvents: ['*'],
      description: null,
      sealedSecret: clear,
    });

    const nextSpec = SealingKeys.generateSpec('next');
    const ring = SealingKeys.parse(`${nextSpec},${TEST_SEALING_SPEC}`);
    const first = await resealEndpointSecrets(h.deps.db, ring, silentLogger());
    expect(first.unreadable).toBe(0);
    expect(first.resealed).toBeGreaterThanOrEqual(3);
    const opened = async (id: string) => {
      const row = await findEndpointRow(h.deps.db, id);
      for (const sealed of [row.secret, row.previous_secret].filter((value) => value !== null)) {
        expect(sealed.startsWith(ring.currentPrefix)).toBe(true);
      }
      const open = (sealed: string | null) => sealed && openEndpointSecret(ring, id, sealed);
      return [open(row.secret), open(row.previous_secret)];
    };
    expect(await opened(endpoint.id)).toEqual([endpoint.secret, null]);
    expect(await opened(rotating.id)).toEqual([rotated.body.data.secret, rotating.secret]);
    expect(await opened(legacy.id)).toEqual([clear, null]);
    expect(await resealEndpointSecrets(h.deps.db, ring, silentLogger())).toEqual({ resealed: 0, unreadable: 0 });
    // And back: the harness's key seals again, for the other tests of this file.
    await resealEndpointSecrets(h.deps.db, SealingKeys.parse(`${TEST_SEALING_SPEC},${nextSpec}`), silentLogger());
    expect((await storedSecrets(h.deps.db, rotating.id)).secret).toBe(rotated.body.data.secret);
  });

  it('sign deliveries once opened: the receiver verifies them with the secret it was shown', async () => {
    const bodies: { raw: string; signature: string }[] = [];
    const receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        bodies.push({ raw, signature: String(req.headers['x-service-signature']) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const sender = new WebhookSender({ allowPrivate: true }, () => new Date());
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      // The harness's door refuses loopback targets: this one, as in local development, allows them.
      const { owner, principal } = await arrangeOwner(h.deps.db);
      const app = createApp({ ...h.deps, targets: { allowPrivate: true } });
      const registered = await request(app).post(base).set(h.caller.headers(principal)).send({ url });
      const endpoint = zData(ZWebhookEndpointWithSecret).parse(registered.body).data;
      await insertOutboxEvent(h.deps.db, {
        id: newId('evt'),
        type: 'item.updated',
        restaurantId: owner.id,
        data: { itemId: newId('itm'), restaurantId: owner.id, itemSlug: 'dish', itemName: 'Dish' },
      });
      const dispatcher = testDispatcher(h.deps.db, sender, 60_000);
      await dispatcher.tick();
      expect(bodies).toHaveLength(1);
      expect(await verifyWebhook(bodies[0]!.raw, bodies[0]!.signature, endpoint.secret)).toMatchObject({ type: 'item.updated' });
    } finally {
      await sender.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
