import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Dishes of the generated menu by how they were made (`DishFacts`): every field given must hold. */
export const ZDishSelector = z.strictObject({
  course: z.enum(['main', 'dessert']).optional(),
  format: z.string().optional(),
  ingredient: z.string().optional(),
  kind: z.string().optional(),
  tag: z.string().optional(),
  allergen: z.string().optional(),
  withoutAllergens: z.array(z.string()).optional(),
});
export type TDishSelector = z.infer<typeof ZDishSelector>;

export const ZEvalQuestion = z.strictObject({
  question: z.string().min(1),
  /** What the question exercises, for reading the report. */
  covers: z.enum([
    'name',
    'ingredient',
    'category',
    'plural',
    'avoid-allergen',
    'avoid-ingredient',
    'find-allergen',
    'dietary',
    'stop-words',
    'vague',
    'unanswerable',
  ]),
  /**
   * The dishes that answer it (names, or on the generated menu a selector): the cards must come from
   * these (precision) and show as many of them as fit (recall). None: no dish answers it, no card is right.
   */
  mustInclude: z.union([z.array(z.string()), ZDishSelector]).default([]),
  /** Dishes that may be carded without being wrong; "any" for a vague question. */
  mayInclude: z.union([z.array(z.string()), z.literal('any')]).default([]),
  /** Dishes that must never be carded. */
  mustNotInclude: z.array(z.string()).default([]),
  /** Allergens the question asks to avoid: no card may declare one, and retrieval must read them all. */
  avoids: z.array(z.string()).default([]),
});
export type TEvalQuestion = z.infer<typeof ZEvalQuestion>;

export const ZEvalSet = z.strictObject({
  menu: z.enum(['demo', 'generated']),
  description: z.string(),
  questions: z.array(ZEvalQuestion).min(1),
});
export type TEvalSet = z.infer<typeof ZEvalSet>;

/** An evaluation set of this folder (`demo-menu.eval.json`), checked. */
export const readEvalSet = (file: string): TEvalSet => ZEvalSet.parse(JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')));
