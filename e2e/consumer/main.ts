// A small integration, written against the published packages only: it lists a restaurant's items,
// runs a sync, streams a concierge answer and verifies a webhook, then prints what it saw as JSON.
// e2e/src/packaging.test.ts installs the packed tarballs beside it, typechecks and runs it.
import { ZItem } from '@partner/contracts';
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

const webhook = JSON.parse(env('WEBHOOK')) as { body: string; headers: Record<string, string>; secret: string };
const event = await verifyWebhook(webhook.body, new Headers(webhook.headers), webhook.secret);
let forged = 0;
try {
  await verifyWebhook(webhook.body.replace('}', ', "forged": true}'), webhook.headers, webhook.secret);
} catch (err) {
  if (err instanceof WebhookVerificationError) forged = err.status;
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
    concierge: { kinds, answer, disclosure },
    webhook: { id: event.id, type: event.type, forged },
    missing,
  }),
);
