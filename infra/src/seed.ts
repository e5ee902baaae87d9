import { ConsoleClient } from '@partner/console/client';
import type { Mailbox } from '@partner/local-mail';
import { createHash, randomBytes } from 'node:crypto';
import { createDishModel, DEMO_MENU } from '@partner/sample-dish';

/** Changes with the demo menu: a start re-seeds a demo of another one. */
const DEMO_VERSION = createHash('sha256').update(JSON.stringify(DEMO_MENU)).digest('base64url').slice(0, 16);

export interface DemoState {
  restaurantId: string;
  secretKey: string;
  publishableKey: string;
  version?: string;
}

/** Whether the demo of an earlier start is still there and its keys still answer. */
async function stillValid(gatewayUrl: string, demo: DemoState): Promise<boolean> {
  try {
    const res = await fetch(`${gatewayUrl}/v1/partner/me`, { headers: { authorization: `Bearer ${demo.secretKey}` } });
    return res.ok;
  } catch {
    return false;
  }
}

/** Seeds the demo restaurant through the console API (the production code path), once. */
export async function seedDemo(options: {
  consoleUrl: string;
  adminToken: string;
  gatewayUrl: string;
  previous: DemoState | undefined;
}): Promise<DemoState> {
  const { previous } = options;
  if (previous?.version === DEMO_VERSION && (await stillValid(options.gatewayUrl, previous))) return previous;
  const client = new ConsoleClient({ baseUrl: options.consoleUrl, adminToken: options.adminToken });
  const slug = `demo-bistro-${randomBytes(2).toString('hex')}`;
  const restaurant = await client.createRestaurant({
    name: 'Demo Bistro',
    slug,
    currency: 'USD',
    houseNotes: 'Kitchen closes at 22:00. We can make most dishes without gluten; ask your server.',
  });
  await client.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
  // Every dish gets its own true-to-size model, so item detail, the viewer and the cards show the dish.
  for (const [position, section] of DEMO_MENU.entries()) {
    const created = await client.createSection(restaurant.id, { name: section.name, position });
    for (const { model, ...fields } of section.dishes) {
      const dish = await client.createItem(restaurant.id, { ...fields, sectionId: created.id });
      await client.uploadModel(dish.id, createDishModel(model));
    }
  }
  const secret = await client.createKey({ restaurantId: restaurant.id, type: 'secret', environment: 'test', name: 'Local demo (secret)' });
  const publishable = await client.createKey({
    restaurantId: restaurant.id,
    type: 'publishable',
    environment: 'test',
    name: 'Local demo (publishable)',
    allowedOrigins: [new URL(options.gatewayUrl).origin, 'http://localhost:5173'],
  });
  return { restaurantId: restaurant.id, secretKey: secret.value, publishableKey: publishable.value, version: DEMO_VERSION };
}

/** The demo restaurant's owner (`.test`: a name no mail server on the internet answers for). */
export const DEMO_OWNER_EMAIL = 'owner@demo.test';

/**
 * Makes sure the demo owner is a member of the demo restaurant (inviting again changes nothing) and
 * returns the sign-in link the invitation e-mailed them: each start prints a fresh one.
 */
export async function signInLinkFor(options: {
  consoleUrl: string;
  adminToken: string;
  restaurantId: string;
  mailbox: Mailbox;
}): Promise<string> {
  const client = new ConsoleClient({ baseUrl: options.consoleUrl, adminToken: options.adminToken });
  await client.inviteMember(
    { kind: 'restaurant', id: options.restaurantId },
    { email: DEMO_OWNER_EMAIL, name: 'Demo Owner', role: 'owner' },
  );
  const mail = await options.mailbox.nextMailTo(DEMO_OWNER_EMAIL);
  return /https?:\/\/\S+/.exec(mail.text)![0];
}
