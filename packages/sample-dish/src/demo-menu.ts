/**
 * The demo restaurant's menu: what `pnpm start` seeds and what the concierge's retrieval is evaluated
 * against. Each dish names the sample model (`DishKind`) that shows it.
 */
export type DishKind = 'burrata' | 'calamari' | 'garden-salad' | 'margherita' | 'steak-frites' | 'salmon' | 'tiramisu' | 'gelato';

export interface DemoDish {
  name: string;
  description: string;
  priceCents: number;
  allergens: string[];
  dietaryTags: string[];
  model: DishKind;
}

export interface DemoSection {
  name: string;
  dishes: DemoDish[];
}

export const DEMO_MENU: DemoSection[] = [
  {
    name: 'Starters',
    dishes: [
      {
        name: 'Burrata with heirloom tomatoes',
        description: 'Creamy burrata from Puglia, heirloom cherry tomatoes, basil and cold-pressed olive oil.',
        priceCents: 1400,
        allergens: ['milk'],
        dietaryTags: ['vegetarian', 'gluten-free'],
        model: 'burrata',
      },
      {
        name: 'Crispy calamari',
        description: 'Squid rings fried in a light batter, with lemon and garlic aioli.',
        priceCents: 1250,
        allergens: ['molluscs', 'gluten', 'eggs'],
        dietaryTags: [],
        model: 'calamari',
      },
      {
        name: 'Garden salad with walnuts',
        description: 'Little gem lettuce, shaved fennel, radishes and toasted walnuts in a cider vinaigrette.',
        priceCents: 1100,
        allergens: ['nuts', 'mustard'],
        dietaryTags: ['vegan', 'vegetarian', 'gluten-free'],
        model: 'garden-salad',
      },
    ],
  },
  {
    name: 'Mains',
    dishes: [
      {
        name: 'Wood-fired margherita',
        description: 'Neapolitan pizza with San Marzano tomato sauce, fior di latte mozzarella and fresh basil.',
        priceCents: 1600,
        allergens: ['gluten', 'milk'],
        dietaryTags: ['vegetarian'],
        model: 'margherita',
      },
      {
        name: 'Steak frites',
        description: 'Grilled sirloin steak with hand-cut fries and herb butter.',
        priceCents: 2900,
        allergens: ['milk'],
        dietaryTags: ['gluten-free'],
        model: 'steak-frites',
      },
      {
        name: 'Miso-glazed salmon',
        description: 'Roasted salmon fillet glazed with white miso, on a bed of baby spinach and pea shoots.',
        priceCents: 2600,
        allergens: ['fish', 'soy'],
        dietaryTags: ['gluten-free'],
        model: 'salmon',
      },
    ],
  },
  {
    name: 'Desserts',
    dishes: [
      {
        name: 'Tiramisu',
        description: 'Espresso-soaked ladyfingers layered with mascarpone cream and cocoa.',
        priceCents: 900,
        allergens: ['milk', 'eggs', 'gluten'],
        dietaryTags: ['vegetarian'],
        model: 'tiramisu',
      },
      {
        name: 'Pistachio gelato',
        description: 'Three scoops of Sicilian pistachio gelato in a glass bowl.',
        priceCents: 800,
        allergens: ['milk', 'nuts'],
        dietaryTags: ['vegetarian', 'gluten-free'],
        model: 'gelato',
      },
    ],
  },
];
