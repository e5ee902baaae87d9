import { describe, expect, it } from 'vitest';
import { analyzeQuestion } from './question-analysis.js';

const wanted = (question: string) => analyzeQuestion(question).wanted.map((term) => term.token);
const avoided = (question: string) => analyzeQuestion(question).excludedAllergens;

describe('analyzeQuestion', () => {
  it('drops stop words: what is left is what the diner asks for', () => {
    expect(wanted('Anything with salmon?')).toEqual(['salmon']);
    expect(wanted('Do you have anything with tomatoes, please?')).toEqual(['tomato']);
    expect(wanted('What do you recommend tonight?')).toEqual([]);
    expect(wanted('Hi! Could you tell me about the steak frites?')).toEqual(['steak', 'frite']);
  });

  it('asks for every dish that declares an allergen it names, but not for a kind of it', () => {
    expect(wanted('Has anything got gluten?')).toEqual(['gluten', 'allergen:gluten']);
    expect(wanted('Which dishes contain eggs?')).toEqual(['egg', 'allergen:eggs']);
    expect(wanted('anything with nuts')).toEqual(['nut', 'allergen:nuts']);
    expect(wanted('any shellfish?')).toEqual(['shellfish', 'allergen:crustaceans', 'allergen:molluscs']);
    expect(wanted('walnuts?')).toEqual(['walnut']);
  });

  it.each([
    ['no nuts', ['nuts']],
    ['without gluten', ['gluten']],
    ['nut-free', ['nuts']],
    ['something nut free', ['nuts']],
    ["I'm allergic to milk", ['milk']],
    ['dairy free', ['milk']],
    ["I can't eat shellfish", ['crustaceans', 'molluscs']],
    ['I cannot have any dairy', ['milk']],
    ['I dont eat eggs', ['eggs']],
    ["I'm lactose intolerant", ['milk']],
    ['I have a nut allergy', ['nuts']],
    ['allergy to soya', ['soy']],
    ['free from wheat', ['gluten']],
    ['no walnuts', ['nuts']],
    ['no nuts or eggs', ['eggs', 'nuts']],
    ['dairy and gluten free', ['gluten', 'milk']],
    ["I'm coeliac", ['gluten']],
  ])('reads an allergen to avoid: %s', (question, allergens) => {
    expect(avoided(question)).toEqual(allergens);
    expect(wanted(question)).toEqual([]);
  });

  it.each([
    ['no nuts, dairy or eggs', ['eggs', 'milk', 'nuts']],
    ['gluten, dairy and nut free', ['gluten', 'milk', 'nuts']],
    ['avoid shellfish, fish and eggs', ['crustaceans', 'eggs', 'fish', 'molluscs']],
    ["I'm allergic to both nuts and dairy, anything sweet?", ['milk', 'nuts']],
    ["what's good? no fish sauce or nuts", ['fish', 'nuts']],
    ['Allergies: nuts, dairy', ['milk', 'nuts']],
    ['I avoid all dairy', ['milk']],
    ['i dont do dairy', ['milk']],
    ['nothing with roasted nuts', ['nuts']],
    ['w/o nuts', ['nuts']],
    ['no nuts/dairy', ['milk', 'nuts']],
    ['no nuts & dairy', ['milk', 'nuts']],
    ['no pine nuts', ['nuts']],
  ])('avoids every allergen a negation heads a list of, however the list is written: %s', (question, allergens) => {
    expect(avoided(question)).toEqual(allergens);
    expect(wanted(question).filter((token) => token.startsWith('allergen:'))).toEqual([]);
  });

  it('keeps a negation to its clause and a comma to allergens, and reads "free range" and a lone "no" for what they are', () => {
    expect(analyzeQuestion('Anything with nuts? No dairy though')).toMatchObject({ excludedAllergens: ['milk'] });
    expect(wanted('Anything with nuts? No dairy though')).toContain('allergen:nuts');
    expect(analyzeQuestion("I'm allergic to milk, any desserts?")).toMatchObject({
      excludedAllergens: ['milk'],
      wanted: [{ token: 'dessert' }],
    });
    expect(analyzeQuestion("I'm lactose intolerant, any fish?")).toMatchObject({ excludedAllergens: ['milk'] });
    expect(wanted("I'm lactose intolerant, any fish?")).toContain('fish');
    expect(analyzeQuestion('is the chicken free range?')).toMatchObject({ excludedAllergens: [], excludedTerms: [] });
    expect(analyzeQuestion('No, I want the salmon')).toMatchObject({ excludedTerms: [], wanted: [{ token: 'salmon' }] });
    expect(analyzeQuestion('something without nuts and with salmon')).toMatchObject({
      excludedAllergens: ['nuts'],
      excludedTerms: [],
      wanted: [{ token: 'salmon' }],
    });
  });

  it('governs the list a negation heads, and nothing past it', () => {
    expect(analyzeQuestion('a dessert without nuts, please')).toMatchObject({
      excludedAllergens: ['nuts'],
      wanted: [{ token: 'dessert' }],
    });
    // "dairy desserts" are desserts without dairy, not no desserts.
    expect(analyzeQuestion('no dairy desserts')).toMatchObject({ excludedAllergens: ['milk'], wanted: [{ token: 'dessert' }] });
    expect(analyzeQuestion('gluten free pasta')).toMatchObject({ excludedAllergens: ['gluten'], wanted: [{ token: 'pasta' }] });
    expect(analyzeQuestion('Is the tiramisu ok with a milk allergy?')).toMatchObject({
      excludedAllergens: ['milk'],
      wanted: [{ token: 'tiramisu' }],
    });
    expect(avoided('Anything with nuts? I love them')).toEqual([]);
  });

  it('reads other things to avoid as terms', () => {
    expect(analyzeQuestion("I don't eat meat")).toEqual({
      wanted: [],
      excludedAllergens: [],
      excludedTerms: [{ token: 'meat', words: [] }],
    });
    expect(analyzeQuestion('nothing fried').excludedTerms).toEqual([{ token: 'fried', words: [] }]);
  });

  it('looks a phrase up whole, or its words when the menu lacks it', () => {
    expect(analyzeQuestion('Do you serve ice cream?').wanted).toEqual([{ token: 'ice cream', words: ['ice', 'cream'] }]);
  });
});
