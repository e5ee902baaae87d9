import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { ZCreateItem, ZCreateRestaurant } from '@partner/contracts/console';
import { type Executor, MENU_CHANGE_NOTE } from '@partner/db';
import type { z } from 'zod';
import type { ConsoleDeps } from '../deps.js';
import { createIntegrator } from '../integrators/integrators.service.js';
import { createItem, createSection } from '../menu/menu.service.js';
import { createRestaurant } from '../restaurants/restaurants.service.js';

// Arrange through console's own services (the code path the routes use), act over HTTP.

const unique = (base: string) => `${base}-${randomBytes(4).toString('hex')}`;

export function seedRestaurant(deps: ConsoleDeps, overrides: Partial<z.input<typeof ZCreateRestaurant>> = {}) {
  return createRestaurant(deps, { name: 'Chez Test', slug: unique('chez-test'), currency: 'EUR', ...overrides });
}

export function seedIntegrator(deps: ConsoleDeps) {
  return createIntegrator(deps, { name: 'POS Co', slug: unique('pos-co') });
}

export function seedSection(deps: ConsoleDeps, restaurantId: string, name = 'Mains') {
  return createSection(deps, restaurantId, { name });
}

export function seedItem(deps: ConsoleDeps, restaurantId: string, overrides: Partial<z.infer<typeof ZCreateItem>> = {}) {
  return createItem(deps, restaurantId, {
    name: 'Soupe du jour',
    slug: unique('soup'),
    priceCents: 750,
    status: 'published',
    dietaryTags: [],
    allergens: [],
    ...overrides,
  });
}

export interface StoredEvent {
  type: string;
  restaurantId: string;
  integratorOrgId: string | null;
  data: Record<string, unknown>;
  /** The id of the transaction that wrote the row (xmin). */
  writtenBy: string;
}

/** The outbox events whose data names `subject` (an item or grant id), oldest first. */
export async function outboxEventsAbout(db: Executor, field: 'itemId' | 'grantId', subject: string): Promise<StoredEvent[]> {
  const { rows } = await sql<{
    type: string;
    restaurant_id: string;
    integrator_org_id: string | null;
    data: Record<string, unknown>;
    xmin: string;
  }>`
    select type, restaurant_id, integrator_org_id, data, xmin::text as xmin from outbox_events
    where data ->> ${field} = ${subject} order by seq
  `.execute(db);
  return rows.map((row) => ({
    type: row.type,
    restaurantId: row.restaurant_id,
    integratorOrgId: row.integrator_org_id,
    data: row.data,
    writtenBy: row.xmin,
  }));
}

/** The restaurant's menu change notes in the outbox, oldest first: the transaction that wrote each. */
export async function menuChangeNotesOf(db: Executor, restaurantId: string): Promise<{ writtenBy: string }[]> {
  const { rows } = await sql<{ xmin: string }>`
    select xmin::text as xmin from outbox_events where type = ${MENU_CHANGE_NOTE} and restaurant_id = ${restaurantId} order by seq
  `.execute(db);
  return rows.map((row) => ({ writtenBy: row.xmin }));
}

/** The id of the transaction that last wrote a row (xmin): equal for rows written in one transaction. */
export async function lastWriterOf(db: Executor, table: 'items' | 'grants' | 'sections' | 'restaurants', id: string): Promise<string> {
  const { rows } = await sql<{ xmin: string }>`select xmin::text as xmin from ${sql.table(table)} where id = ${id}`.execute(db);
  if (!rows[0]) throw new Error(`no ${table} row ${id}`);
  return rows[0].xmin;
}
