import { ConsoleClient } from '@partner/console/client';
import type { Mailbox } from '@partner/local-mail';
import { randomBytes } from 'node:crypto';
import { createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } from '@partner/sample-dish';

export interface DemoState {
  restaurantId: string;
  secretKey: string;
  publishableKey: string;
}

const SECTIONS = [
  {
    name: 'Starters',
    items: [
      { name: 'Burrata with heirloom tomatoes', priceCents: 1400, allergens: ['milk'], dietaryTags: ['vegetarian'] },
      { name: 'Crispy calamari', priceCents: 1250, allergens: ['molluscs', 'gluten'], dietaryTags: [] },
    ],
  },
  {
    name: 'Mains',
    items: [
      { name: 'Wood-fired margherita', priceCents: 1600, allergens: ['gluten', 'milk'], dietaryTags: ['vegetarian'] },
      { name: 'Steak frites', priceCents: 2900, allergens: [], dietaryTags: ['gluten-free'] },
      { name: 'Miso-glazed salmon', priceCents: 2600, allergens: ['fish', 'soy'], dietaryTags: [] },
    ],
  },
  {
    name: 'Desserts',
    items: [{ name: 'Tiramisu', priceCents: 900, allergens: ['milk', 'eggs', 'gluten'], dietaryTags: ['vegetarian'] }],
  },
];

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
  if (options.previous && (await stillValid(options.gatewayUrl, options.previous))) return options.previous;
  const client = new ConsoleClient({ baseUrl: options.consoleUrl, adminToken: options.adminToken });
  const slug = `demo-bistro-${randomBytes(2).toString('hex')}`;
  const restaurant = await client.createRestaurant({
    name: 'Demo Bistro',
    slug,
    currency: 'USD',
    houseNotes: 'Kitchen closes at 22:00. We can make most dishes without gluten; ask your server.',
  });
  await client.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
  // Every dish gets the sample plate as its 3D model, so item detail and the viewer have something to show.
  const model = { glb: createSampleDishGlb(), usdz: await createSampleDishUsdz(), thumbnail: createSampleThumbnailPng() };
  for (const [position, section] of SECTIONS.entries()) {
    const created = await client.createSection(restaurant.id, { name: section.name, position });
    for (const item of section.items) {
      const dish = await client.createItem(restaurant.id, { ...item, sectionId: created.id });
      await client.uploadModel(dish.id, model);
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
  return { restaurantId: restaurant.id, secretKey: secret.value, publishableKey: publishable.value };
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
