// A large menu for the retrieval evaluation: up to ~1,900 distinct dishes built from a fixed catalogue
// of ingredients, the same for a given size and seed. Each dish keeps the facts it was made from
// (ingredients, kinds, course), so that the evaluation's labels come from how the dish was made, not
// from the index's own reading of its words.
import type { MenuEntry } from '../src/grounding/menu-index.ts';

/** What the evaluation knows of a generated dish, beside its menu entry. */
export interface DishFacts {
  course: 'main' | 'dessert';
  /** The format ("salad", "tart") and every ingredient, as the catalogue names them. */
  format: string;
  ingredients: string[];
  /** The kinds of its ingredients ("fish", "cheese", "nut"), as the catalogue names them. */
  kinds: string[];
}

export interface GeneratedDish {
  entry: MenuEntry;
  facts: DishFacts;
}

interface Ingredient {
  /** As written in a name or a description. */
  name: string;
  kinds: string[];
  allergens: string[];
  /** The strictest diet it keeps to. */
  diet: 'vegan' | 'vegetarian' | 'none';
}

const ingredient = (name: string, diet: Ingredient['diet'], kinds: string[] = [], allergens: string[] = []): Ingredient => ({
  name,
  kinds,
  allergens,
  diet,
});

const PROTEINS: Ingredient[] = [
  ingredient('salmon', 'none', ['fish', 'seafood'], ['fish']),
  ingredient('tuna', 'none', ['fish', 'seafood'], ['fish']),
  ingredient('cod', 'none', ['fish', 'seafood'], ['fish']),
  ingredient('sea bass', 'none', ['fish', 'seafood'], ['fish']),
  ingredient('prawn', 'none', ['shellfish', 'seafood'], ['crustaceans']),
  ingredient('squid', 'none', ['mollusc', 'seafood'], ['molluscs']),
  ingredient('mussel', 'none', ['mollusc', 'seafood'], ['molluscs']),
  ingredient('chicken', 'none', ['meat', 'chicken']),
  ingredient('beef', 'none', ['meat', 'beef']),
  ingredient('pork belly', 'none', ['meat', 'pork']),
  ingredient('lamb', 'none', ['meat', 'lamb']),
  ingredient('duck', 'none', ['meat', 'poultry']),
  ingredient('tofu', 'vegan', ['soy'], ['soy']),
  ingredient('halloumi', 'vegetarian', ['cheese'], ['milk']),
  ingredient('paneer', 'vegetarian', ['cheese'], ['milk']),
  ingredient('chickpea', 'vegan', ['vegetable']),
  ingredient('mushroom', 'vegan', ['vegetable']),
  ingredient('aubergine', 'vegan', ['vegetable']),
];

/** How a main is cooked: the first word of its name. */
const PREPARATIONS = ['Grilled', 'Roasted', 'Braised', 'Crispy', 'Smoked', 'Charred', 'Spiced', 'Glazed', 'Slow-cooked', 'Steamed'];

interface Format extends Ingredient {
  /** Says what the dish is: "{protein}" stands for the main ingredient. */
  sentence: string;
}

const format = (name: string, sentence: string, diet: Ingredient['diet'], allergens: string[] = [], kinds: string[] = []): Format => ({
  ...ingredient(name, diet, kinds, allergens),
  sentence,
});

const MAIN_FORMATS: Format[] = [
  format('salad', 'A bright salad of {protein} over little gem lettuce', 'vegan', [], ['vegetable', 'greens']),
  format('pasta', 'Fresh egg pasta tossed with {protein}', 'vegetarian', ['gluten', 'eggs'], ['pasta']),
  format('risotto', 'Carnaroli risotto finished with butter and {protein}', 'vegetarian', ['milk'], ['rice', 'dairy']),
  format(
    'pizza',
    'A wood-fired pizza topped with {protein} and mozzarella',
    'vegetarian',
    ['gluten', 'milk'],
    ['pizza', 'cheese', 'dairy'],
  ),
  format('burger', 'A toasted sesame bun filled with {protein}', 'vegan', ['gluten', 'sesame']),
  format('curry', 'A slow-simmered coconut curry of {protein}, served with rice', 'vegan'),
  format('soup', 'A warming broth with {protein}', 'vegan'),
  format('tacos', 'Three corn tortillas filled with {protein}', 'vegan'),
  format('skewers', 'Charcoal skewers of {protein}', 'vegan'),
  format('stew', 'A hearty stew of {protein} and root vegetables', 'vegan', ['celery'], ['vegetable']),
  format('bowl', 'A grain bowl of brown rice and {protein}', 'vegan'),
  format('sandwich', 'Sourdough bread layered with {protein}', 'vegan', ['gluten']),
];

const EXTRAS: Ingredient[] = [
  ingredient('heirloom tomatoes', 'vegan', ['vegetable']),
  ingredient('baby spinach', 'vegan', ['vegetable', 'greens']),
  ingredient('toasted walnuts', 'vegan', ['nut'], ['nuts']),
  ingredient('almonds', 'vegan', ['nut'], ['nuts']),
  ingredient('pistachio crumb', 'vegan', ['nut'], ['nuts']),
  ingredient('shaved parmesan', 'vegetarian', ['cheese'], ['milk']),
  ingredient('crumbled feta', 'vegetarian', ['cheese'], ['milk']),
  ingredient('fresh basil', 'vegan', ['herb']),
  ingredient('charred lemon', 'vegan', ['fruit']),
  ingredient('red chilli', 'vegan', ['spicy']),
  ingredient('roasted garlic', 'vegan', ['vegetable']),
  ingredient('shaved fennel', 'vegan', ['vegetable']),
  ingredient('wild rocket', 'vegan', ['vegetable', 'greens']),
  ingredient('garden peas', 'vegan', ['vegetable']),
  ingredient('black olives', 'vegan', ['vegetable']),
  ingredient('capers', 'vegan', ['vegetable']),
  ingredient('toasted sesame seeds', 'vegan', ['seed'], ['sesame']),
  ingredient('greek yogurt', 'vegetarian', ['dairy'], ['milk']),
  ingredient('garlic aioli', 'vegetarian', ['sauce'], ['eggs']),
  ingredient('white miso', 'vegan', ['soy'], ['soy']),
  ingredient('a mustard dressing', 'vegan', ['sauce'], ['mustard']),
  ingredient('pickled red onion', 'vegan', ['vegetable']),
  ingredient('salsa verde with anchovies', 'none', ['fish', 'sauce'], ['fish']),
  ingredient('sweet potato', 'vegan', ['vegetable']),
];

const DESSERT_FORMATS: Format[] = [
  format('tart', 'A buttery shortcrust tart filled with {protein}', 'vegetarian', ['gluten', 'eggs', 'milk'], ['dessert', 'sweet']),
  format('gelato', 'Two scoops of {protein} gelato', 'vegetarian', ['milk'], ['dessert', 'sweet', 'ice cream']),
  format('mousse', 'A light mousse of {protein}', 'vegetarian', ['eggs', 'milk'], ['dessert', 'sweet']),
  format('cake', 'A soft sponge cake layered with {protein}', 'vegetarian', ['gluten', 'eggs', 'milk'], ['dessert', 'sweet']),
  format('panna cotta', 'A set cream panna cotta with {protein}', 'vegetarian', ['milk'], ['dessert', 'sweet']),
  format('sorbet', 'A dairy-free sorbet of {protein}', 'vegan', [], ['dessert', 'sweet']),
  format(
    'cheesecake',
    'A baked cheesecake on a biscuit base with {protein}',
    'vegetarian',
    ['milk', 'gluten', 'eggs'],
    ['dessert', 'sweet', 'cheese'],
  ),
];

const FLAVOURS: Ingredient[] = [
  ingredient('dark chocolate', 'vegan', ['sweet']),
  ingredient('lemon', 'vegan', ['fruit']),
  ingredient('pistachio', 'vegan', ['nut'], ['nuts']),
  ingredient('hazelnut', 'vegan', ['nut'], ['nuts']),
  ingredient('vanilla', 'vegan'),
  ingredient('strawberry', 'vegan', ['fruit']),
  ingredient('salted caramel', 'vegetarian', ['sweet'], ['milk']),
  ingredient('espresso', 'vegan'),
  ingredient('almond', 'vegan', ['nut'], ['nuts']),
  ingredient('raspberry', 'vegan', ['fruit']),
];

/** mulberry32: a small seeded generator, so a size and seed always give the same menu. */
function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const capitalise = (text: string) => text[0]!.toUpperCase() + text.slice(1);
const listed = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? ''));

function dishOf(
  id: string,
  name: string,
  description: string,
  parts: Ingredient[],
  form: Format,
  course: DishFacts['course'],
  tagGlutenFree: boolean,
): GeneratedDish {
  const allergens = [...new Set(parts.flatMap((part) => part.allergens))].sort();
  const diets = parts.map((part) => part.diet);
  const dietaryTags = [
    ...(diets.every((diet) => diet === 'vegan') ? ['vegan'] : []),
    ...(diets.every((diet) => diet !== 'none') ? ['vegetarian'] : []),
    // Restaurants mark only some of the dishes that could be: half, here.
    ...(!allergens.includes('gluten') && tagGlutenFree ? ['gluten-free'] : []),
  ];
  return {
    entry: {
      id,
      slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      name,
      description,
      priceCents: 800 + (name.length % 20) * 100,
      allergens,
      dietaryTags,
      thumbnailKey: null,
    },
    facts: {
      course,
      format: form.name,
      ingredients: parts.map((part) => part.name),
      kinds: [...new Set(parts.flatMap((part) => part.kinds))],
    },
  };
}

/**
 * `size` dishes (mains, and a dessert in every fifteen), distinct by name, in menu order (name, then
 * id) as the service reads them.
 */
export function generateMenu(size: number, seed = 1): GeneratedDish[] {
  const next = seeded(seed);
  const dishes = new Map<string, GeneratedDish>();
  const desserts = DESSERT_FORMATS.length * FLAVOURS.length;
  const mains = PREPARATIONS.length * PROTEINS.length * MAIN_FORMATS.length;
  if (size > desserts + mains) throw new Error(`at most ${desserts + mains} distinct dishes`);
  let dessertsMade = 0;
  while (dishes.size < size) {
    const id = `itm_gen${String(dishes.size).padStart(5, '0')}`;
    if (dessertsMade < desserts && next(15) === 0) {
      const form = DESSERT_FORMATS[next(DESSERT_FORMATS.length)]!;
      const flavour = FLAVOURS[next(FLAVOURS.length)]!;
      const name = `${capitalise(flavour.name)} ${form.name}`;
      if (dishes.has(name)) continue;
      dishes.set(
        name,
        dishOf(id, name, `${form.sentence.replace('{protein}', flavour.name)}.`, [form, flavour], form, 'dessert', next(2) === 0),
      );
      dessertsMade++;
      continue;
    }
    const form = MAIN_FORMATS[next(MAIN_FORMATS.length)]!;
    const protein = PROTEINS[next(PROTEINS.length)]!;
    const name = `${PREPARATIONS[next(PREPARATIONS.length)]!} ${protein.name} ${form.name}`;
    if (dishes.has(name)) continue;
    const extras = new Set<Ingredient>();
    const count = 2 + next(2);
    while (extras.size < count) extras.add(EXTRAS[next(EXTRAS.length)]!);
    const description = `${form.sentence.replace('{protein}', protein.name)}, with ${listed([...extras].map((extra) => extra.name))}.`;
    dishes.set(name, dishOf(id, name, description, [form, protein, ...extras], form, 'main', next(2) === 0));
  }
  return [...dishes.values()].sort((a, b) =>
    a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : a.entry.id < b.entry.id ? -1 : 1,
  );
}
