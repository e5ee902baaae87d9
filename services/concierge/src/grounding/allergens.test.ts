import { describe, expect, it } from 'vitest';
import { allergensAvoidedBy, allergensFreeByTag, allergensNamedBy, allergensOf } from './allergens.js';
import { stemPhrase } from './terms.js';

const of = (word: string) => [...allergensOf(stemPhrase(word))].sort();

describe('allergen names', () => {
  it.each([
    ['dairy', ['milk']],
    ['lactose', ['milk']],
    ['milk', ['milk']],
    ['nut', ['nuts']],
    ['nuts', ['nuts']],
    ['walnuts', ['nuts']],
    ['wheat', ['gluten']],
    ['gluten', ['gluten']],
    ['shellfish', ['crustaceans', 'molluscs']],
    ['egg', ['eggs']],
    ['soya', ['soy']],
    ['peanuts', ['peanuts']],
  ])('%s names %j', (word, allergens) => {
    expect(of(word)).toEqual(allergens);
  });

  it('names an allergen as a whole with its name, not with a kind of it', () => {
    expect(allergensNamedBy(stemPhrase('nuts'))).toEqual(['nuts']);
    expect(allergensNamedBy(stemPhrase('walnuts'))).toEqual([]);
    expect(of('salmon')).toEqual([]);
  });

  it('knows the conditions that avoid one and the tags that promise a dish free of some', () => {
    expect(allergensAvoidedBy(stemPhrase('coeliac'))).toEqual(['gluten']);
    expect(allergensFreeByTag(stemPhrase('vegan'))).toEqual(['milk', 'eggs', 'fish', 'crustaceans', 'molluscs']);
    expect(allergensFreeByTag(stemPhrase('spicy'))).toEqual([]);
  });
});
