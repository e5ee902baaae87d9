import { type Context, type Link, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';

/**
 * The W3C `traceparent` of the span running now, to store beside a change so that work done later
 * because of it (a webhook delivery) can link back; null when nothing is traced.
 */
export function currentTraceparent(): string | null {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** What traced work may say of its span. */
export interface TracedWork {
  attribute(name: string, value: string | number): void;
  /** The work failed (an answer that is not a success, an error). */
  fail(message: string | null): void;
}

/**
 * Runs `work` in a new trace whose root span links to the trace of `traceparent` (the change that
 * caused it) rather than continuing it: a delivery may run hours after the change, retried several
 * times, and belongs in a trace of its own. Free when tracing is off (the API's no-op tracer).
 */
export function traceLinkedTo<T>(
  name: string,
  traceparent: string | null,
  attributes: Record<string, string | number>,
  work: (traced: TracedWork) => Promise<T>,
): Promise<T> {
  const links: Link[] = [];
  if (traceparent) {
    const cause = trace.getSpanContext(propagation.extract(context.active(), { traceparent }));
    if (cause) links.push({ context: cause });
  }
  const tracer = trace.getTracer('@partner/tracing');
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, root: true, links, attributes }, async (span) => {
    try {
      return await work({
        attribute: (attribute, value) => span.setAttribute(attribute, value),
        fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? undefined }),
      });
    } finally {
      span.end();
    }
  });
}

/** A span of the current trace, ended by its owner: for work that outlives a callback (a streamed answer). */
export interface OpenSpan extends TracedWork {
  /** Runs `work` inside the span: what it calls (an HTTP request) becomes the span's child. */
  within<T>(work: () => T): T;
  end(): void;
}

/** Opens a client span under the active one (the request being answered); free when tracing is off. */
export function openClientSpan(name: string, attributes: Record<string, string | number>): OpenSpan {
  const span = trace.getTracer('@partner/tracing').startSpan(name, { kind: SpanKind.CLIENT, attributes });
  const inside = trace.setSpan(context.active(), span);
  return {
    within: (work) => context.with(inside, work),
    attribute: (attribute, value) => span.setAttribute(attribute, value),
    fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? undefined }),
    end: () => span.end(),
  };
}

/**
 * Set by the SDK as tracing starts (`@opentelemetry/core`'s, which is not loaded while tracing is off:
 * with no propagator registered nothing is sent out, so there is nothing to suppress).
 */
let suppressTracing: ((active: Context) => Context) | null = null;

export function useTracingSuppression(suppress: (active: Context) => Context): void {
  suppressTracing = suppress;
}

/** Runs `work` with no trace context sent out: requests to third parties (webhook receivers) carry no `traceparent`. */
export function withoutTracePropagation<T>(work: () => T): T {
  return suppressTracing ? context.with(suppressTracing(context.active()), work) : work();
}
