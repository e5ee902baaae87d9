import { Agent, request } from 'node:http';

/** One request of the load: when it started and was answered (ms since the epoch), and how. */
export interface Sample {
  startedAt: number;
  answeredAt: number;
  durationMs: number;
  /** HTTP status; 0 when no answer came (a reset connection, or the client's own time limit). */
  status: number;
  /** The envelope's `error.code`, or the socket error's code when there was no answer. */
  code: string | null;
  retryAfter: boolean;
}

export interface LoadOptions {
  /** Loopback only: the load never leaves this machine. */
  baseUrl: string;
  paths: string[];
  /** Taken in turn, one set per request (several keys, say). */
  headers: Record<string, string>[];
  concurrency: number;
  maxRequests: number;
  maxDurationMs: number;
  /** The client gives up on a request after this long (well past any deadline a service enforces). */
  requestTimeoutMs: number;
}

export interface Load {
  samples: Sample[];
  /** Stops issuing requests and waits for those in flight (each bounded by requestTimeoutMs). */
  stop(): Promise<Sample[]>;
}

function once(agent: Agent, url: URL, headers: Record<string, string>, timeoutMs: number): Promise<Sample> {
  const startedAt = Date.now();
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number, code: string | null, retryAfter = false) => {
      if (settled) return;
      settled = true;
      resolve({ startedAt, answeredAt: Date.now(), durationMs: performance.now() - started, status, code, retryAfter });
    };
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err: NodeJS.ErrnoException) => finish(0, err.code ?? 'response_error'));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        let code: string | null = null;
        if (status >= 400) {
          try {
            code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: string } }).error?.code ?? 'no_envelope';
          } catch {
            code = 'no_envelope';
          }
        }
        finish(status, code, res.headers['retry-after'] !== undefined);
      });
    });
    req.setTimeout(timeoutMs, () => {
      finish(0, 'client_timeout');
      req.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(0, err.code ?? 'request_error'));
    req.end();
  });
}

/**
 * A bounded closed loop: `concurrency` workers, each sending its next request when the last is
 * answered, until stopped, `maxRequests` were sent or `maxDurationMs` passed.
 */
export function startLoad(options: LoadOptions): Load {
  const base = new URL(options.baseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)) throw new Error('the fault load targets loopback only');
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const samples: Sample[] = [];
  const stopAt = Date.now() + options.maxDurationMs;
  let sent = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && sent < options.maxRequests && Date.now() < stopAt) {
      const turn = sent++;
      const path = options.paths[turn % options.paths.length]!;
      const headers = options.headers[turn % options.headers.length]!;
      samples.push(await once(agent, new URL(path, base), headers, options.requestTimeoutMs));
    }
  };
  const workers = Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    samples,
    async stop() {
      stopped = true;
      await workers;
      agent.destroy();
      return samples;
    },
  };
}
