import { describe, expect, it } from 'vitest';
import { categoriesOf } from './food-categories.js';
import { FOOD_TAXONOMY } from './food-taxonomy.js';
import { stemPhrase } from './terms.js';

const categories = (word: string) => [...categoriesOf(stemPhrase(word))].sort();

describe('categoriesOf', () => {
  it.each([
    ['salmon', ['fish', 'seafood']],
    ['tuna', ['fish', 'seafood']],
    ['calamari', ['mollusc', 'seafood']],
    ['squid', ['mollusc', 'seafood']],
    ['prawns', ['crustacean', 'seafood']],
    ['burrata', ['chees', 'dairi']],
    ['mascarpone', ['chees', 'dairi']],
    ['sirloin', ['beef', 'meat']],
    ['walnuts', ['nut']],
    ['tiramisu', ['dessert', 'sweet']],
    ['gelato', ['dairi', 'dessert', 'ice cream', 'sweet']],
    ['spinach', ['green', 'veget']],
    ['margherita', ['pizza', 'wheat']],
  ])('%s implies %j (stemmed), through the chain', (word, implied) => {
    expect(categories(word)).toEqual(implied);
  });

  it('implies nothing for a word it does not know, nor for a category that is not inside another', () => {
    expect(categoriesOf('sushiburrito')).toEqual([]);
    expect(categories('seafood')).toEqual([]);
  });

  it('never makes a category its own member', () => {
    for (const category of Object.keys(FOOD_TAXONOMY)) expect(categoriesOf(stemPhrase(category))).not.toContain(stemPhrase(category));
  });
});
