import type { MenuEntry } from '../src/grounding/menu-index.ts';
import type { TDishSelector, TEvalQuestion, TEvalSet } from './eval-set.ts';
import type { EvalMenu } from './menus.ts';

/** What a turn shows as cards when the model cites what it was given: the first three retrieved (the sandbox provider's reply). */
export const CARDS = 3;

export const TARGETS = {
  /** Of the cards shown, on average over every question, the share that answer it. */
  precisionAt3: 0.9,
  /** Retrieval on the 1,000-dish menu, checked by the script only (a busy test machine would make it flaky). */
  p99Ms: 5,
} as const;

/** The index as the evaluation uses it: `MenuIndex`, from the sources (tests) or the build (the script). */
export interface Searcher {
  search(question: string): { dishes: MenuEntry[]; excludedAllergens: string[] };
}

export interface QuestionResult {
  menu: EvalMenu['name'];
  question: TEvalQuestion;
  /** The carded dishes' names. */
  cards: string[];
  precision: number;
  /** Null when no dish answers the question. */
  recall: number | null;
  /** Dishes that answer the question and would fit but were not carded. */
  missing: string[];
  /** Carded dishes that do not answer it. */
  irrelevant: string[];
  /** Carded dishes the question names as never to card. */
  forbidden: string[];
  /** Carded dishes that declare an allergen the question avoids. */
  carriesAvoided: string[];
  /** Allergens the question avoids that retrieval did not read from it. */
  unread: string[];
}

export interface Summary {
  questions: number;
  precisionAt3: number;
  recallAt3: number;
  /** How many questions the recall averages: those that some dish answers. */
  recallQuestions: number;
  carriesAvoided: number;
  unread: number;
  forbidden: number;
}

/** Runs every question of a set against an index of its menu. */
export function evaluateSet(set: TEvalSet, menu: EvalMenu, index: Searcher): QuestionResult[] {
  if (set.menu !== menu.name) throw new Error(`a ${set.menu} menu set run against the ${menu.name} menu`);
  const byName = new Map(menu.dishes.map((dish) => [dish.name, dish]));
  const named = (names: string[]) =>
    names.map((name) => {
      const dish = byName.get(name);
      if (!dish) throw new Error(`the ${menu.name} menu has no dish named ${JSON.stringify(name)}`);
      return dish;
    });
  return set.questions.map((question) => {
    const ids = (dishes: MenuEntry[]) => new Set(dishes.map((dish) => dish.id));
    const answering = Array.isArray(question.mustInclude) ? named(question.mustInclude) : selected(menu, question.mustInclude);
    const answers = ids(answering);
    const acceptable = question.mayInclude === 'any' ? null : ids(named(question.mayInclude));
    const never = ids(named(question.mustNotInclude));
    const retrieval = index.search(question.question);
    const cards = retrieval.dishes.slice(0, CARDS);
    const carded = ids(cards);
    const relevant = (dish: MenuEntry) => answers.has(dish.id) || !acceptable || acceptable.has(dish.id);
    const found = cards.filter((dish) => answers.has(dish.id)).length;
    const shouldShow = Math.min(CARDS, answers.size);
    return {
      menu: menu.name,
      question,
      cards: cards.map((dish) => dish.name),
      // No card for a question no dish answers is the right answer; no card for one that some dish (or any) answers is not.
      precision: cards.length ? cards.filter(relevant).length / cards.length : answers.size || !acceptable ? 0 : 1,
      recall: answers.size ? found / shouldShow : null,
      missing: found < shouldShow ? answering.filter((dish) => !carded.has(dish.id)).map((dish) => dish.name) : [],
      irrelevant: cards.filter((dish) => !relevant(dish)).map((dish) => dish.name),
      forbidden: cards.filter((dish) => never.has(dish.id)).map((dish) => dish.name),
      carriesAvoided: cards
        .filter((dish) => dish.allergens.some((allergen) => question.avoids.includes(allergen)))
        .map((dish) => dish.name),
      unread: question.avoids.filter((allergen) => !retrieval.excludedAllergens.includes(allergen)),
    };
  });
}

/** Dishes of the generated menu that match a selector. */
function selected(menu: EvalMenu, selector: TDishSelector): MenuEntry[] {
  const { facts } = menu;
  if (!facts) throw new Error(`the ${menu.name} menu names its dishes: a selector needs the generated menu`);
  return menu.dishes.filter((dish) => {
    const made = facts.get(dish.id)!;
    return (
      (!selector.course || made.course === selector.course) &&
      (!selector.format || made.format === selector.format) &&
      (!selector.ingredient || made.ingredients.includes(selector.ingredient)) &&
      (!selector.kind || made.kinds.includes(selector.kind)) &&
      (!selector.tag || dish.dietaryTags.includes(selector.tag)) &&
      (!selector.allergen || dish.allergens.includes(selector.allergen)) &&
      !(selector.withoutAllergens ?? []).some((allergen) => dish.allergens.includes(allergen))
    );
  });
}

const mean = (values: number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 1);

export function summarize(results: QuestionResult[]): Summary {
  const recalls = results.flatMap((result) => (result.recall === null ? [] : [result.recall]));
  return {
    questions: results.length,
    precisionAt3: mean(results.map((result) => result.precision)),
    recallAt3: mean(recalls),
    recallQuestions: recalls.length,
    carriesAvoided: results.reduce((sum, result) => sum + result.carriesAvoided.length, 0),
    unread: results.reduce((sum, result) => sum + result.unread.length, 0),
    forbidden: results.reduce((sum, result) => sum + result.forbidden.length, 0),
  };
}

/** The quality targets a run missed (the timing target is the script's): empty when every one is met. */
export function missedTargets(summary: Summary): string[] {
  return [
    ...(summary.precisionAt3 < TARGETS.precisionAt3 ? [`precision@3 ${summary.precisionAt3.toFixed(3)} < ${TARGETS.precisionAt3}`] : []),
    ...(summary.carriesAvoided ? [`${summary.carriesAvoided} carded dish(es) declare an allergen the question avoids`] : []),
    ...(summary.unread ? [`${summary.unread} avoided allergen(s) not read from the question`] : []),
    ...(summary.forbidden ? [`${summary.forbidden} carded dish(es) the set says must never be`] : []),
  ];
}

/** The misses of one question, a line each, for the report; empty when it has none. */
export function describeMisses(result: QuestionResult): string[] {
  const lines = [
    ...(result.irrelevant.length ? [`carded, does not answer it: ${result.irrelevant.join('; ')}`] : []),
    ...(result.missing.length
      ? [
          `answers it, not carded: ${result.missing.slice(0, 5).join('; ')}${result.missing.length > 5 ? ` (+${result.missing.length - 5})` : ''}`,
        ]
      : []),
    ...(result.forbidden.length ? [`carded, must never be: ${result.forbidden.join('; ')}`] : []),
    ...(result.carriesAvoided.length ? [`carded with an avoided allergen: ${result.carriesAvoided.join('; ')}`] : []),
    ...(result.unread.length ? [`avoided allergen not read: ${result.unread.join(', ')}`] : []),
    ...(result.precision === 0 && !result.cards.length ? ['no card, but a dish answers it'] : []),
  ];
  return lines;
}
