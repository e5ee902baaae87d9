// A small integration, written against the published packages only: it lists a restaurant's items,
// runs a sync, streams a concierge answer (and abandons a second one), registers two webhook endpoints
// (one per signature scheme), has each sent a test event and verifies what arrived; then it prints
// what it saw as JSON. e2e/src/packed-packages.ts installs the packed tarballs beside it, typechecks
// and runs it, in the tests against a stack of their own and by `pnpm try-sdk` against `pnpm start`.
import { WEBHOOK_SIGNATURE_SCHEMES, ZItem } from '@partner/contracts';
import { isApiError, PartnerClient, type SyncChange, verifyWebhook, WebhookVerificationError } from '@partner/sdk';

// Node's `process`, declared here so that the program needs no @types/node.
declare const process: { env: Record<string, string | undefined> };

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const client = new PartnerClient({ apiKey: env('PARTNER_API_KEY'), baseUrl: env('PARTNER_BASE_URL') });
const restaurantId = env('RESTAURANT_ID');
const receiverUrl = env('WEBHOOK_RECEIVER_URL');

const itemIds: string[] = [];
for await (const item of client.items.list(restaurantId, { limit: 2 })) itemIds.push(ZItem.parse(item).id);

const sync = client.items.sync(restaurantId, { limit: 2 });
const changes: Record<SyncChange['type'], number> = { reset: 0, upsert: 0, delete: 0 };
for await (const change of sync) changes[change.type]++;

const kinds: string[] = [];
let answer = '';
let disclosure = '';
for await (const event of client.concierge.chat(restaurantId, { message: 'What do you recommend?' })) {
  kinds.push(event.event);
  if (event.event === 'meta') disclosure = event.data.disclosure;
  if (event.event === 'delta') answer += event.data.text;
}

// A diner who closes the chat mid-answer: the stream stops at the abort.
const controller = new AbortController();
let aborted = '';
try {
  for await (const event of client.concierge.chat(restaurantId, { message: 'Anything sweet?' }, { signal: controller.signal })) {
    if (event.event === 'meta') controller.abort();
  }
} catch (err) {
  aborted = err instanceof Error ? err.name : String(err);
}

interface Arrived {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What the receiver got at `url`, once it has arrived. */
async function arrivedAt(url: string): Promise<Arrived> {
  const path = new URL(url).pathname + new URL(url).search;
  for (let waited = 0; waited < 20_000; waited += 100) {
    const found = ((await (await fetch(receiverUrl)).json()) as Arrived[]).find((entry) => entry.url === path);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing arrived at ${url}`);
}

const webhooks = [];
for (const scheme of WEBHOOK_SIGNATURE_SCHEMES) {
  const url = `${receiverUrl}?scheme=${scheme}&run=${Date.now()}`;
  const endpoint = await client.webhookEndpoints.create({ url, enabledEvents: ['item.updated'], signatureScheme: scheme });
  try {
    await client.webhookEndpoints.test(endpoint.id);
    const arrived = await arrivedAt(url);
    const event = await verifyWebhook(arrived.body, arrived.headers, endpoint.secret);
    let forged = 0;
    try {
      await verifyWebhook(arrived.body.replace('}', ', "forged": true}'), arrived.headers, endpoint.secret);
    } catch (err) {
      if (err instanceof WebhookVerificationError) forged = err.status;
    }
    webhooks.push({ scheme, type: event.type, verified: true, forged });
  } finally {
    await client.webhookEndpoints.delete(endpoint.id);
  }
}

let missing = '';
try {
  await client.items.get('itm_doesnotexist');
} catch (err) {
  if (isApiError(err)) missing = err.code;
}

console.log(
  JSON.stringify({
    itemIds,
    sync: { changes, updatedAfter: sync.updatedAfter },
    concierge: { kinds, answer, disclosure, aborted },
    webhooks,
    missing,
  }),
);
