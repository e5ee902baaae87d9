import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built module, in a process of its own: tracing is process-wide (global provider, import hooks).
const tracingModule = fileURLToPath(new URL('../dist/index.js', import.meta.url));

function runChild(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = `
    import { startTracing, currentTraceparent, openClientSpan } from ${JSON.stringify(tracingModule)};
    await startTracing('child');
    const span = openClientSpan('probe', {});
    const traceparent = span.within(() => currentTraceparent());
    span.end();
    process.stdout.write(JSON.stringify({ traceparent, hooked: typeof globalThis[Symbol.for('opentelemetry.js.api.1')]?.trace }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('startTracing', () => {
  it('without an OTLP endpoint registers nothing: no provider, spans that record nothing, no trace context', async () => {
    const { code, stdout } = await runChild({});
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ traceparent: null, hooked: 'undefined' });
  });

  it('with one, records spans and puts them in a W3C traceparent', async () => {
    // Nothing listens there: the spans are dropped at export, after the process has what it needs.
    const { code, stdout } = await runChild({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_BSP_SCHEDULE_DELAY: '60000' });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('refuses a malformed variable, naming it', async () => {
    const { code, stderr } = await runChild({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER: 'sometimes' });
    expect(code).toBe(1);
    expect(stderr).toContain('OTEL_TRACES_SAMPLER');
  });

  it('samples nothing with always_off: no traceparent is sent on', async () => {
    const { stdout } = await runChild({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER: 'always_off' });
    expect(JSON.parse(stdout).traceparent).toMatch(/-00$/);
  });
});
