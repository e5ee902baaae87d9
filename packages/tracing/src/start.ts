import { settingsSchema } from './settings.js';

/** Started tracing's flush, or nothing while tracing is off. */
let flushing: (() => Promise<void>) | null = null;

/**
 * Traces the process when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only variant) is set; otherwise
 * loads nothing and costs nothing. Called first in a service's `main.ts`, before anything it traces is
 * imported: the instrumentations patch `http`, `pg` and `@redis/client` as they load.
 *
 * Exits with the variable named when one is malformed, as the services' own configuration does.
 */
export async function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    process.stderr.write(`${JSON.stringify({ level: 60, service, msg: `invalid tracing configuration: ${names}` })}\n`);
    process.exit(1);
  }
  const vars = parsed.data;
  if (!vars.OTEL_EXPORTER_OTLP_ENDPOINT && !vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return;
  const { startSdk } = await import('./sdk.js');
  flushing = startSdk({
    service,
    protocol: vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? vars.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    sampler: vars.OTEL_TRACES_SAMPLER,
    samplerRatio: vars.OTEL_TRACES_SAMPLER_ARG,
    scheduleDelayMs: vars.OTEL_BSP_SCHEDULE_DELAY,
  });
}

/**
 * Sends the spans still buffered (shutdown), for two seconds at most; at once when tracing is off.
 * Spans a collector did not take in that time are lost: the shutdown goes on.
 */
export async function flushTraces(): Promise<void> {
  await flushing?.().catch(() => undefined);
}
