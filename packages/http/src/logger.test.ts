import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const loggerSource = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs `script` in a child Node process (with this package's logger importable) and captures its stdout. */
function runChild(script: string): Promise<{ stdout: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('close', (_code, signal) => resolve({ stdout, signal }));
  });
}

describe('the service logger', () => {
  it('writes a line before the call returns: a SIGKILL right after it loses nothing', async () => {
    // The process kills itself in the same tick as the error: no timer, no exit hook, no flush runs.
    const { stdout, signal } = await runChild(`
      import { createLogger } from ${JSON.stringify(loggerSource)};
      const logger = createLogger({ service: 'child' });
      logger.error({ kind: 'postgres:unreachable' }, 'the one rare error line');
      process.kill(process.pid, 'SIGKILL');
    `);
    expect(signal).toBe('SIGKILL');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, service: 'child', kind: 'postgres:unreachable', msg: 'the one rare error line' }),
    ]);
  });
});
