import { register } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, suppressTracing, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { register as registerImportHooks, supportsSyncHooks } from 'import-in-the-middle/register-hooks.mjs';
import { nameAnswers, routeOfAnswer } from './answer-names.js';
import { useTracingSuppression } from './trace-context.js';
import type { TracingSettings } from './settings.js';

/** What the instrumentations patch when it is imported from ESM (require() is hooked regardless). */
const HOOKED_IMPORTS = ['pg', 'pg-pool', '@redis/client', 'http', 'https', 'node:http', 'node:https'];

const FLUSH_TIMEOUT_MS = 2_000;

/** Requests no one wants a trace of: probes and scrapes, every few seconds on every pod. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function samplerOf(settings: TracingSettings): Sampler {
  const ratio = new TraceIdRatioBasedSampler(settings.samplerRatio);
  switch (settings.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * The SDK, set up once per process: W3C trace context and baggage, spans batched to OTLP over HTTP
 * (endpoint, headers, timeout and compression from the standard `OTEL_EXPORTER_OTLP_*` variables, which
 * the exporter reads itself), and spans for HTTP in and out, Postgres and Redis. Database and Redis
 * calls are traced only inside a traced request or delivery: the dispatcher's polling would otherwise
 * start a trace every few milliseconds.
 */
export function startSdk(settings: TracingSettings): () => Promise<void> {
  // In-thread hooks where Node has them (24.11.1 and later, what the project runs on); the loader thread before.
  if (supportsSyncHooks()) registerImportHooks({ include: HOOKED_IMPORTS });
  else register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: HOOKED_IMPORTS } });
  nameAnswers();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  useTracingSuppression(suppressTracing);
  const exporter = settings.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.service }).merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: settings.scheduleDelayMs })],
  });
  // The API's global provider: every instrumentation and our own spans find it there.
  trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]!),
        // The exporter's own requests are not traced (it suppresses tracing); nothing else goes out unparented.
        requireParentforOutgoingSpans: true,
        applyCustomAttributesOnSpan: (span, req, res) => {
          const route = routeOfAnswer(res);
          if (route && 'method' in req) span.updateName(`${req.method} ${route}`).setAttribute('http.route', route);
        },
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new PgInstrumentation({ requireParentSpan: true }),
      new RedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  // Shutdown waits this long at most for a collector that does not answer.
  return () => provider.forceFlush({ timeoutMillis: FLUSH_TIMEOUT_MS });
}
