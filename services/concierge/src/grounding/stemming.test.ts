import { describe, expect, it } from 'vitest';
import { stem } from './stemming.js';

describe('stem', () => {
  it.each([
    ['tomatoes', 'tomato'],
    ['tomato', 'tomato'],
    ['fries', 'fri'],
    ['fry', 'fri'],
    ['noodles', 'noodl'],
    ['noodle', 'noodl'],
    ['grilled', 'grill'],
    ['grill', 'grill'],
    ['walnuts', 'walnut'],
    ['desserts', 'dessert'],
    ['berries', 'berri'],
    ['berry', 'berri'],
  ])('joins a plural or an inflection to its word: %s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });

  it('keeps "fried" (how a dish is cooked) apart from "fries" (what comes with it)', () => {
    expect(stem('fried')).toBe('fried');
    expect(stem('fried')).not.toBe(stem('fries'));
  });

  it('leaves numbers and words with digits as they are', () => {
    expect(stem('4243')).toBe('4243');
    expect(stem('b12')).toBe('b12');
  });
});
