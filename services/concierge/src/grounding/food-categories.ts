import { FOOD_TAXONOMY } from './food-taxonomy.js';
import { stemPhrase } from './terms.js';

/** Each stemmed word or phrase and the categories it belongs to, directly. */
const PARENTS = new Map<string, string[]>();
for (const [category, members] of Object.entries(FOOD_TAXONOMY)) {
  for (const member of members) {
    const term = stemPhrase(member);
    PARENTS.set(term, [...(PARENTS.get(term) ?? []), stemPhrase(category)]);
  }
}

/** Every category a term belongs to, through the chain (mozzarella → cheese → dairy), stemmed. */
const CATEGORIES = new Map<string, readonly string[]>();
for (const term of PARENTS.keys()) {
  const found = new Set<string>();
  const visit = (at: string) => {
    for (const parent of PARENTS.get(at) ?? []) {
      if (found.has(parent)) continue;
      found.add(parent);
      visit(parent);
    }
  };
  visit(term);
  found.delete(term);
  CATEGORIES.set(term, [...found]);
}

/** The categories a term (a stem or a stemmed phrase) implies; none for a word the taxonomy does not know. */
export const categoriesOf = (term: string): readonly string[] => CATEGORIES.get(term) ?? [];
