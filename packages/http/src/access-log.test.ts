import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built module: a child process imports it as a service does (the test command builds first).
const accessLogModule = fileURLToPath(new URL('../dist/access-log.js', import.meta.url));

function runChild(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    child.once('close', () => resolve(stdout));
  });
}

describe('the access log on stdout', () => {
  it('writes the lines of a turn together, as JSON, and all of them by the time the process ends', async () => {
    const stdout = await runChild(`
      import { AccessLog } from ${JSON.stringify(accessLogModule)};
      const log = AccessLog.create({ service: 'child', level: 'info', successSample: 1, pretty: false });
      const line = (n, status) => ({ requestId: 'req_' + n, method: 'GET', route: '/things/:id', status, durationMs: 1.5 });
      log.write(line(1, 200));
      log.write(line(2, 500));
      // A later turn, then shutdown's flush.
      setTimeout(() => { log.write(line(3, 404)); log.flush(); }, 20);
    `);
    const lines = stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines.map((line) => [line.requestId, line.status, line.service, line.msg])).toEqual([
      ['req_1', 200, 'child', 'request'],
      ['req_2', 500, 'child', 'request'],
      ['req_3', 404, 'child', 'request'],
    ]);
  });
});
