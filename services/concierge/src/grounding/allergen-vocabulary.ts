/**
 * The allergens as dishes declare them (the EU's fourteen, named as our restaurants write them), and
 * the words that name each one: in a question ("dairy free", "I can't eat shellfish"), in a dish's
 * declared list ("Tree nuts", "Dairy") or among a dish's words and categories (`food-taxonomy.ts`: a dish
 * in "nut" contains nuts). One word may name two ("shellfish"). Singular, unstemmed.
 */
export const ALLERGEN_NAMES: Readonly<Record<string, readonly string[]>> = {
  gluten: ['gluten', 'wheat'],
  crustaceans: ['crustacean', 'shellfish'],
  eggs: ['egg'],
  fish: ['fish'],
  peanuts: ['peanut', 'groundnut'],
  soy: ['soy', 'soya', 'soybean'],
  milk: ['milk', 'dairy', 'lactose'],
  nuts: ['nut'],
  celery: ['celery', 'celeriac'],
  mustard: ['mustard'],
  sesame: ['sesame'],
  sulphites: ['sulphite', 'sulfite', 'sulphur', 'sulfur'],
  lupin: ['lupin', 'lupine'],
  molluscs: ['mollusc', 'mollusk', 'shellfish'],
};

/**
 * Kinds of an allergen: avoiding one avoids the allergen ("no walnuts": no nut at all), and a dish that
 * declares one declares it; but asking for one asks for that kind alone ("walnuts?" is not "nuts?").
 */
export const ALLERGEN_KINDS: Readonly<Record<string, readonly string[]>> = {
  nuts: ['walnut', 'almond', 'hazelnut', 'pistachio', 'pecan', 'cashew', 'macadamia', 'brazil nut', 'pine nut', 'praline', 'marzipan'],
};

/** Words that say the guest avoids an allergen without a negation: "I'm coeliac". */
export const CONDITIONS: Readonly<Record<string, readonly string[]>> = {
  coeliac: ['gluten'],
  celiac: ['gluten'],
};

/**
 * Dietary tags that promise a dish is free of allergens, besides "<allergen>-free" itself: they let a
 * dish whose words suggest an allergen (a vegan "cream") stay when the guest avoids it, and rank
 * first for "dairy free?". A declared allergen always wins over a tag.
 */
export const FREE_OF_BY_TAG: Readonly<Record<string, readonly string[]>> = {
  vegan: ['milk', 'eggs', 'fish', 'crustaceans', 'molluscs'],
  vegetarian: ['fish', 'crustaceans', 'molluscs'],
};

/**
 * The words of a question that asks about allergens, as `tokenize` leaves them (lower case, unstemmed):
 * such a question gets a `detail` event with the declared allergens of each dish it is about, even when
 * it avoids none ("is there gluten in the pasta?"): the allergens' and the conditions' names, and the
 * rest of the word list this replaced, kept as it was (widening it changes which questions get details).
 */
export const ALLERGEN_QUESTION_WORDS: ReadonlySet<string> = new Set([
  ...Object.keys(ALLERGEN_NAMES),
  ...Object.keys(CONDITIONS),
  ...'allergy allergies allergic allergen allergens wheat nut peanut tree dairy lactose egg soya shellfish crustacean mollusc sulfites'.split(
    ' ',
  ),
]);
