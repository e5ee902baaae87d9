import { describe, expect, it } from 'vitest';
import { MenuIndex } from '../src/grounding/menu-index.ts';
import { MenuIndexBuilder } from '../src/grounding/menu-index-builder.ts';
import { readEvalSet } from './eval-set.ts';
import { describeMisses, evaluateSet, missedTargets, summarize } from './evaluate.ts';
import { demoMenu, type EvalMenu, generatedMenu } from './menus.ts';

function buildIndex(menu: EvalMenu): MenuIndex {
  const builder = new MenuIndexBuilder();
  for (const dish of menu.dishes) builder.add(dish);
  return new MenuIndex(builder.finish('"eval"'));
}

// The evaluation's quality targets, from the sources (the script, `pnpm eval:concierge`, also times retrieval).
describe('retrieval evaluation', () => {
  it('meets precision@3 and never cards a dish with an allergen the question avoids, on the demo and the generated menu', () => {
    const menus = { demo: demoMenu(), generated: generatedMenu() };
    const results = [readEvalSet('./demo-menu.eval.json'), readEvalSet('./generated-menu.eval.json')].flatMap((set) =>
      evaluateSet(set, menus[set.menu], buildIndex(menus[set.menu])),
    );
    const misses = results.flatMap((result) => describeMisses(result).map((line) => `${result.question.question}: ${line}`));
    expect(missedTargets(summarize(results)), misses.join('\n')).toEqual([]);
  });
});
