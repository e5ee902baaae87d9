import { describe, expect, it } from 'vitest';
import { analyzeDish, containsAnyAllergen, WEIGHTS } from './dish-analysis.js';
import type { MenuEntry } from './menu-index.js';

const dish = (fields: Partial<MenuEntry>): MenuEntry => ({
  id: 'itm_1',
  slug: 'dish',
  name: 'Dish',
  description: null,
  priceCents: 1000,
  allergens: [],
  dietaryTags: [],
  thumbnailKey: null,
  ...fields,
});

describe('analyzeDish', () => {
  it('weighs a word in the name above the same word in the description, and drops stop words', () => {
    const tokens = analyzeDish(dish({ name: 'Burrata with heirloom tomatoes', description: 'Creamy burrata with cherry tomatoes.' }));
    expect(tokens.get('burrata')).toBe(WEIGHTS.name + WEIGHTS.description);
    expect(tokens.get('tomato')).toBe(WEIGHTS.name + WEIGHTS.description);
    expect(tokens.get('creami')).toBe(WEIGHTS.description);
    expect(tokens.has('with')).toBe(false);
  });

  it('adds the categories its words imply, once a field, below any word of its own', () => {
    const tokens = analyzeDish(dish({ name: 'Miso-glazed salmon', description: 'Roasted salmon and cod, baby spinach.' }));
    expect(tokens.get('fish')).toBe(WEIGHTS.nameCategory + WEIGHTS.descriptionCategory);
    expect(tokens.get('seafood')).toBe(WEIGHTS.nameCategory + WEIGHTS.descriptionCategory);
    expect(tokens.get('veget')).toBe(WEIGHTS.descriptionCategory);
    expect(WEIGHTS.nameCategory + WEIGHTS.descriptionCategory).toBeLessThan(WEIGHTS.description);
    // A phrase implies its own categories, not its words': goat cheese is no meat.
    const goat = analyzeDish(dish({ name: 'Goat cheese salad' }));
    expect(goat.has('goat chees')).toBe(true);
    expect(goat.has('chees')).toBe(true);
    expect(goat.has('meat')).toBe(false);
  });

  it('indexes tags, and declared allergens by their canonical name', () => {
    const tokens = analyzeDish(dish({ dietaryTags: ['Vegetarian'], allergens: ['Tree nuts', 'Dairy', 'garlic'] }));
    expect(tokens.get('vegetarian')).toBe(WEIGHTS.tags);
    expect(tokens.get('allergen:nuts')).toBe(WEIGHTS.tags);
    expect(tokens.get('allergen:milk')).toBe(WEIGHTS.tags);
    expect(tokens.get('allergen:garlic')).toBe(WEIGHTS.tags);
  });

  it('reads "gluten-free" as a promise, never as gluten; only a tag promises', () => {
    const tokens = analyzeDish(dish({ dietaryTags: ['gluten-free'], description: 'Made dairy-free.' }));
    expect(tokens.get('free:gluten')).toBe(WEIGHTS.tags);
    // A description may say "dairy-free on request": no promise of the dish as served.
    expect(tokens.has('free:milk')).toBe(false);
    expect([...tokens.keys()].filter((token) => /gluten|dairi|free$/.test(token) && !token.startsWith('free:'))).toEqual([]);
  });

  it('reads a declared allergen whole, negations and all: "Eggs (free range)" declares eggs', () => {
    expect(analyzeDish(dish({ allergens: ['Eggs (free range)'] })).has('allergen:eggs')).toBe(true);
    expect(analyzeDish(dish({ allergens: ['Pine nuts'] })).has('allergen:nuts')).toBe(true);
    // A description that speaks of an allergy promises nothing: the walnuts still show the nuts.
    const brownie = analyzeDish(dish({ name: 'Walnut brownie', description: 'Not suitable for a nut allergy.' }));
    expect(brownie.has('allergen:nuts')).toBe(true);
    expect(brownie.has('free:nuts')).toBe(false);
  });

  it('takes an allergen from its ingredients when it is not declared, unless a tag promises the dish free of it', () => {
    expect(analyzeDish(dish({ description: 'Toasted walnuts and prawns' })).get('allergen:nuts')).toBe(WEIGHTS.impliedAllergen);
    expect(analyzeDish(dish({ description: 'Toasted walnuts and prawns' })).has('allergen:crustaceans')).toBe(true);
    expect(analyzeDish(dish({ description: 'Toasted walnuts and prawns' })).has('allergen:molluscs')).toBe(false);
    expect(analyzeDish(dish({ description: 'Oat cream', dietaryTags: ['vegan'] })).has('allergen:milk')).toBe(false);
    // A declared allergen wins over a tag that contradicts it.
    const contradicted = analyzeDish(dish({ allergens: ['milk'], dietaryTags: ['dairy-free'] }));
    expect(contradicted.has('allergen:milk')).toBe(true);
    expect(contradicted.has('free:milk')).toBe(false);
  });
});

describe('containsAnyAllergen', () => {
  it('holds for a declared allergen, or one its ingredients show, among those given', () => {
    const tiramisu = dish({ name: 'Tiramisu', description: 'Mascarpone, espresso, cocoa', allergens: ['eggs', 'gluten'] });
    expect(containsAnyAllergen(tiramisu, ['eggs'])).toBe(true);
    expect(containsAnyAllergen(tiramisu, ['milk'])).toBe(true);
    expect(containsAnyAllergen(tiramisu, ['nuts', 'fish'])).toBe(false);
    expect(containsAnyAllergen(tiramisu, [])).toBe(false);
  });
});
