// pnpm --filter @partner/concierge eval (or pnpm eval:concierge from the root) — the retrieval
// evaluation (docs/concierge-retrieval.md): builds the real index of the demo menu and of a generated
// 1,000-dish menu with the service's own builder (from dist/: build first), runs every question of
// *.eval.json, prints each question's misses, precision@3 and recall of the three cards, the cards
// that carry an avoided allergen, and retrieval time on the 1,000-dish menu. Exits 1 on a missed target.
import { MenuIndex } from '../dist/grounding/menu-index.js';
import { MenuIndexBuilder } from '../dist/grounding/menu-index-builder.js';
import { readEvalSet } from './eval-set.ts';
import { describeMisses, evaluateSet, missedTargets, type QuestionResult, summarize, TARGETS } from './evaluate.ts';
import { demoMenu, type EvalMenu, generatedMenu } from './menus.ts';

/** Timed passes over every question on the large menu, after one untimed pass (the JIT's). */
const ROUNDS = 100;

function buildIndex(menu: EvalMenu): MenuIndex {
  const builder = new MenuIndexBuilder();
  for (const dish of menu.dishes) builder.add(dish);
  return new MenuIndex(builder.finish(`"eval-${menu.name}"`));
}

const sets = [readEvalSet('./demo-menu.eval.json'), readEvalSet('./generated-menu.eval.json')];
const menus = { demo: demoMenu(), generated: generatedMenu() };
const started = performance.now();
const indexes = { demo: buildIndex(menus.demo), generated: buildIndex(menus.generated) };
const buildMs = performance.now() - started;

const results: QuestionResult[] = sets.flatMap((set) => evaluateSet(set, menus[set.menu], indexes[set.menu]));
for (const result of results) {
  const misses = describeMisses(result);
  if (!misses.length) continue;
  console.log(
    `✗ [${result.menu}] ${JSON.stringify(result.question.question)} (${result.question.covers}) → ${result.cards.join('; ') || 'no card'}`,
  );
  for (const line of misses) console.log(`    ${line}`);
}

const questions = sets.flatMap((set) => set.questions.map((question) => question.question));
const large = indexes.generated;
for (const question of questions) large.search(question);
const times: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const question of questions) {
    const before = performance.now();
    large.search(question);
    times.push(performance.now() - before);
  }
}
times.sort((a, b) => a - b);
const percentile = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
const [p50, p99] = [percentile(0.5), percentile(0.99)];

const figures = (label: string, picked: QuestionResult[]) => {
  const summary = summarize(picked);
  console.log(
    `${label.padEnd(10)} ${String(summary.questions).padStart(3)} questions  precision@3 ${summary.precisionAt3.toFixed(3)}  ` +
      `recall@3 ${summary.recallAt3.toFixed(3)} (${summary.recallQuestions} answerable)  ` +
      `avoided allergen carded ${summary.carriesAvoided}, unread ${summary.unread}`,
  );
};
console.log('');
figures(
  'demo',
  results.filter((result) => result.menu === 'demo'),
);
figures(
  'generated',
  results.filter((result) => result.menu === 'generated'),
);
figures('all', results);
console.log(
  `retrieval on the ${menus.generated.dishes.length.toLocaleString('en-US')}-dish menu: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms ` +
    `(${times.length.toLocaleString('en-US')} searches); both indexes built in ${buildMs.toFixed(0)} ms, ` +
    `the large one ${(large.bytes / 1024).toFixed(0)} KB`,
);

const missed = [
  ...missedTargets(summarize(results)),
  ...(p99 >= TARGETS.p99Ms ? [`retrieval p99 ${p99.toFixed(3)} ms ≥ ${TARGETS.p99Ms} ms`] : []),
];
console.log(
  missed.length
    ? `\nMISSED: ${missed.join('; ')}`
    : `\nevery target met: precision@3 ≥ ${TARGETS.precisionAt3}, no avoided allergen carded, p99 < ${TARGETS.p99Ms} ms`,
);
process.exitCode = missed.length ? 1 : 0;
