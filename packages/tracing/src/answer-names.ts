import type { ServerResponse } from 'node:http';

/**
 * The route template of each traced answer, asked for as its span ends: the HTTP instrumentation knows
 * only the path, and a span named by path would make a name per item. Filled only while tracing is on.
 */
const answerRoutes = new WeakMap<object, () => string | null>();
let naming = false;

/** Whether server spans are being named (tracing is on): callers skip building what naming reads. */
export const namesAnswers = (): boolean => naming;

/** Called by the SDK's start: from now on answers are named. */
export function nameAnswers(): void {
  naming = true;
}

/**
 * Names the server span of `res` `METHOD /route/:template` when it ends (the template read then; null
 * for a request no route matched, whose span keeps the bare method).
 */
export function nameTracedAnswer(res: ServerResponse, routeOf: () => string | null): void {
  if (naming) answerRoutes.set(res, routeOf);
}

export function routeOfAnswer(res: object): string | null {
  return answerRoutes.get(res)?.() ?? null;
}
