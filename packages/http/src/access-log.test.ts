import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AccessLog } from './access-log.js';

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
  it('writes its lines in order, as JSON, within 50 ms, and all of them by the time the process ends', async () => {
    const stdout = await runChild(`
      import { AccessLog } from ${JSON.stringify(accessLogModule)};
      const log = AccessLog.create({ service: 'child', level: 'info', successSample: 1, pretty: false });
      // Beyond ASCII too: the batch holds bytes.
      const line = (n, status) => ({ requestId: 'req_' + n, method: 'GET', route: n === 2 ? '/cafés/\u2028' : '/things/:id', status, durationMs: 1.5 });
      log.write(line(1, 200));
      log.write(line(2, 500));
      // After the first batch has left on its own (a pending line does not hold the process: the
      // timer is unreferenced), one more, then shutdown's flush.
      setTimeout(() => { log.write(line(3, 404)); log.flush(); }, 120);
    `);
    const lines = stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines.map((line) => [line.requestId, line.route, line.status, line.service, line.msg])).toEqual([
      ['req_1', '/things/:id', 200, 'child', 'request'],
      ['req_2', '/cafés/\u2028', 500, 'child', 'request'],
      ['req_3', '/things/:id', 404, 'child', 'request'],
    ]);
  });
});

describe('an access line', () => {
  const written = (successSample = 1) => {
    const lines: string[] = [];
    return { log: new AccessLog({ write: (line: string) => void lines.push(line) }, 'svc', successSample, () => 0.5), lines };
  };

  it('is one line of JSON as pino writes it, every value escaped, durations in tenths of a millisecond, the caller only when known', () => {
    const { log, lines } = written();
    const tricky = 'req_"quoted"\n\\{"injected":true}\u2028';
    log.write({ requestId: tricky, method: 'GET', route: tricky, status: 404, durationMs: 0.66 });
    log.write({ requestId: 'req_2', method: 'POST', route: '/x', status: 201, durationMs: 1234.96 }, { keyId: 'key_1', owner: 'restaurant:rst_1', restaurantId: 'rst_1' });
    expect(lines.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toEqual({ level: 30, time: expect.any(Number), service: 'svc', requestId: tricky, method: 'GET', route: tricky, status: 404, durationMs: 0.7, msg: 'request' });
    expect(second).toMatchObject({ requestId: 'req_2', keyId: 'key_1', owner: 'restaurant:rst_1', restaurantId: 'rst_1', status: 201, durationMs: 1235 });
  });

  it('writes any duration as a JSON number', () => {
    const { log, lines } = written();
    for (const durationMs of [0, 0.04, -0.26, Number.NaN, 1e21]) log.write({ requestId: 'req_1', method: 'GET', route: '/x', status: 500, durationMs });
    expect(lines.map((line) => (JSON.parse(line) as { durationMs: number }).durationMs)).toEqual([0, 0, 0, 0, 1e21]);
  });

  it('is taken for every error, and for successes as sampled; never below the info level', () => {
    expect([written(1).log.takes(200), written(0.4).log.takes(200), written(0.4).log.takes(500), written(0).log.takes(404)]).toEqual([true, false, true, true]);
    const quiet = AccessLog.create({ service: 'svc', level: 'warn', successSample: 1, pretty: false });
    expect([quiet.takes(200), quiet.takes(500)]).toEqual([false, false]);
  });
});
