export { startTracing, flushTraces } from './start.js';
export { namesAnswers, nameTracedAnswer } from './answer-names.js';
export { currentTraceparent, type OpenSpan, openClientSpan, traceLinkedTo, type TracedWork, withoutTracePropagation } from './trace-context.js';
