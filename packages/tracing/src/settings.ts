import { z } from 'zod';

/** The OpenTelemetry variables the services read (docs/observability.md "Traces"). */
export const settingsSchema = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().positive().default(5000),
});

export interface TracingSettings {
  service: string;
  protocol: 'http/protobuf' | 'http/json';
  sampler: z.infer<typeof settingsSchema>['OTEL_TRACES_SAMPLER'];
  samplerRatio: number;
  scheduleDelayMs: number;
}
