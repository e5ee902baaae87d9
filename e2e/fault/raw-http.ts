import { connect } from 'node:net';

/** What came back for bytes written on a fresh connection, read as HTTP/1.1 (interim 1xx skipped). */
export interface RawAnswer {
  /** `answered`: a status line and headers came back; `closed`: the connection ended without one. */
  outcome: 'answered' | 'closed' | 'timeout' | 'error';
  status: number | null;
  headers: Record<string, string>;
  body: string;
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
}

/** The first final (non-1xx) response head in `buffer`, if it is all there. */
function parseHead(buffer: Buffer): Parsed | null {
  let offset = 0;
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n', offset);
    if (end < 0) return null;
    const lines = buffer.subarray(offset, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
    if (Number.isNaN(status)) return { status: 0, headers: {}, bodyStart: end + 4 };
    if (status >= 200 || status < 100) {
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      return { status, headers, bodyStart: end + 4 };
    }
    offset = end + 4;
  }
}

/** The body of a chunked message, once its last chunk has arrived. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

/** The body, once all of it has arrived by Content-Length or chunking; null while more is to come. */
function completeBody(head: Parsed, buffer: Buffer): Buffer | null {
  const data = buffer.subarray(head.bodyStart);
  if (head.headers['transfer-encoding']?.toLowerCase().includes('chunked')) return dechunk(data);
  const length = head.headers['content-length'];
  if (length !== undefined) return data.length >= Number(length) ? data.subarray(0, Number(length)) : null;
  return null;
}

/**
 * Writes `payload` on a new loopback connection and reads one answer: the way a broken client or a
 * scanner talks to the gateway, below any HTTP library that would refuse to send such bytes.
 */
export function exchange(port: number, payload: Buffer, timeoutMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: RawAnswer['outcome']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const head = parseHead(buffer);
      if (!head) return resolve({ outcome: outcome === 'answered' ? 'closed' : outcome, status: null, headers: {}, body: '' });
      const body = completeBody(head, buffer) ?? buffer.subarray(head.bodyStart);
      resolve({ outcome: 'answered', status: head.status, headers: head.headers, body: body.toString('utf8') });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const head = parseHead(buffer);
      if (head && completeBody(head, buffer) !== null) finish('answered');
    });
    // A server that answers and closes while the rest of a request is still being written resets it.
    socket.on('error', () => finish('error'));
    socket.on('close', () => finish('answered'));
  });
}

/** Whether an answer is the platform's error envelope: `{ error: { code, message, requestId } }`. */
export function isEnvelope(answer: RawAnswer): boolean {
  if (answer.status === null || answer.status < 400) return false;
  try {
    const error = (JSON.parse(answer.body) as { error?: Record<string, unknown> }).error;
    return typeof error?.code === 'string' && typeof error.message === 'string' && typeof error.requestId === 'string';
  } catch {
    return false;
  }
}
