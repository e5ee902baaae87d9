import { DEMO_MENU } from '@partner/sample-dish';
import type { MenuEntry } from '../src/grounding/menu-index.ts';
import { type DishFacts, generateMenu } from './generated-menu.ts';

/** A menu the evaluation runs questions against: its dishes in menu order, and for a generated one, how each was made. */
export interface EvalMenu {
  name: 'demo' | 'generated';
  dishes: MenuEntry[];
  facts?: Map<string, DishFacts>;
}

/** The generated menu's size: the largest the retrieval target (p99 < 5 ms) speaks of. */
export const GENERATED_MENU_SIZE = 1_000;

/** The demo restaurant's dishes as `pnpm start` seeds them, in menu order (name, then id). */
export function demoMenu(): EvalMenu {
  const dishes = DEMO_MENU.flatMap((section) => section.dishes).map((dish, n): MenuEntry => ({
    id: `itm_demo${n}`,
    slug: dish.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    name: dish.name,
    description: dish.description,
    priceCents: dish.priceCents,
    allergens: dish.allergens,
    dietaryTags: dish.dietaryTags,
    thumbnailKey: null,
  }));
  return { name: 'demo', dishes: dishes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

export function generatedMenu(): EvalMenu {
  const generated = generateMenu(GENERATED_MENU_SIZE);
  return {
    name: 'generated',
    dishes: generated.map((dish) => dish.entry),
    facts: new Map(generated.map((dish) => [dish.entry.id, dish.facts])),
  };
}
