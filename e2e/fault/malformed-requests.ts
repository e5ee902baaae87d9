/** One kind of broken request, as the bytes a client would put on the wire. */
export interface MalformedRequest {
  category: string;
  name: string;
  bytes: Buffer;
}

const CRLF = '\r\n';

/**
 * The corpus: what scanners, broken clients and fuzzers send. Each request carries a valid key where
 * the fault is elsewhere, so the gateway gets as far as it would for a real partner, and asks for the
 * connection to be closed after the answer.
 */
export function malformedRequests(options: {
  port: number;
  secretKey: string;
  restaurantId: string;
  endpointId: string;
}): MalformedRequest[] {
  const host = `Host: 127.0.0.1:${options.port}`;
  const auth = `Authorization: Bearer ${options.secretKey}`;
  const raw = (text: string) => Buffer.from(text, 'latin1');
  const message = (line: string, headers: string[], body = '') =>
    raw(`${line}${CRLF}${[...headers, 'Connection: close'].join(CRLF)}${CRLF}${CRLF}${body}`);
  const get = (target: string, headers: string[] = []) => message(`GET ${target} HTTP/1.1`, [host, auth, ...headers]);
  const post = (contentType: string | null, body: string, path = '/v1/partner/webhook-endpoints') =>
    message(
      `POST ${path} HTTP/1.1`,
      [host, auth, ...(contentType ? [`Content-Type: ${contentType}`] : []), `Content-Length: ${Buffer.byteLength(body, 'latin1')}`],
      body,
    );
  // A body that, if a server parsed it regardless, still creates nothing (the URL is not one).
  const harmless = JSON.stringify({ url: 'not a url', enabledEvents: ['*'] });
  const declared = (length: string, extra: string[] = []) =>
    message(
      'POST /v1/partner/webhook-endpoints HTTP/1.1',
      [host, auth, 'Content-Type: application/json', `Content-Length: ${length}`, ...extra],
      '{"url":',
    );

  const list: [string, string, Buffer][] = [
    ['unknown method', 'FOO', message('FOO /v1/partner/me HTTP/1.1', [host, auth])],
    ['unknown method', 'get (lower case)', message('get /v1/partner/me HTTP/1.1', [host, auth])],
    ['unknown method', 'BREW', message('BREW /v1/partner/me HTTP/1.1', [host, auth])],
    ['unknown method', 'G3T', message('G3T /v1/partner/me HTTP/1.1', [host, auth])],
    ['unknown method', 'PROPFINDX', message('PROPFINDX /v1/partner/restaurants HTTP/1.1', [host, auth])],

    ['malformed header syntax', 'no colon', get('/v1/partner/me', ['X-No-Colon value'])],
    ['malformed header syntax', 'space in name', get('/v1/partner/me', ['Bad Header: 1'])],
    ['malformed header syntax', 'space before colon', get('/v1/partner/me', ['X-Spaced : 1'])],
    ['malformed header syntax', 'control character in value', get('/v1/partner/me', ['X-Ctl: a\x01b'])],
    ['malformed header syntax', 'NUL in name', get('/v1/partner/me', ['X-N\x00ul: 1'])],
    ['malformed header syntax', 'obsolete line folding', get('/v1/partner/me', ['X-Fold: a', ' continued'])],
    ['malformed header syntax', 'bare LF line ends', raw(`GET /v1/partner/me HTTP/1.1\n${host}\n${auth}\nConnection: close\n\n`)],

    ['oversized headers', 'one 20 KiB header', get('/v1/partner/me', [`X-Big: ${'a'.repeat(20 * 1024)}`])],
    [
      'oversized headers',
      '400 headers',
      get(
        '/v1/partner/me',
        Array.from({ length: 400 }, (_, i) => `X-Many-${i}: ${'b'.repeat(50)}`),
      ),
    ],
    ['oversized headers', '64 KiB cookie', get('/v1/partner/me', [`Cookie: c=${'c'.repeat(64 * 1024)}`])],
    ['oversized headers', '20 KiB URL', get(`/v1/partner/items/${'d'.repeat(20 * 1024)}`)],

    ['bad request line', 'no version', raw(`GET /v1/partner/me${CRLF}${CRLF}`)],
    ['bad request line', 'extra token', message('GET /v1/partner/me HTTP/1.1 extra', [host, auth])],
    ['bad request line', 'double space', message('GET  /v1/partner/me HTTP/1.1', [host, auth])],
    ['bad request line', 'HTTP/9.9', message('GET /v1/partner/me HTTP/9.9', [host, auth])],
    ['bad request line', 'target first', message('/v1/partner/me GET HTTP/1.1', [host, auth])],
    ['bad request line', 'space in target', message('GET /v1/partner /me HTTP/1.1', [host, auth])],
    ['bad request line', 'TLS hello on plain HTTP', Buffer.from('16030100a5010000a10303' + '00'.repeat(64), 'hex')],
    ['bad request line', 'NUL in target', message('GET /v1/partner/\x00me HTTP/1.1', [host, auth])],

    ['invalid JSON body', 'open brace', post('application/json', '{')],
    ['invalid JSON body', 'missing value', post('application/json', '{"url": }')],
    ['invalid JSON body', 'plain words', post('application/json', 'not json')],
    ['invalid JSON body', 'unterminated', post('application/json', '{"url":"https://a.example"')],
    ['invalid JSON body', 'trailing brace', post('application/json', '{"url":"x"}}')],
    ['invalid JSON body', 'invalid UTF-8', post('application/json', '{"url":"\xff\xfe"}')],
    [
      'invalid JSON body',
      'PATCH, truncated',
      post('application/json', '{"description":', `/v1/partner/webhook-endpoints/${options.endpointId}`),
    ],

    ['wrong content type', 'text/plain', post('text/plain', harmless)],
    ['wrong content type', 'form encoded', post('application/x-www-form-urlencoded', 'url=not+a+url')],
    ['wrong content type', 'XML', post('application/xml', '<endpoint><url>x</url></endpoint>')],
    ['wrong content type', 'none', post(null, harmless)],
    ['wrong content type', 'multipart garbage', post('multipart/form-data; boundary=x', '--x\r\nnope')],
    ['wrong content type', 'JSON in UTF-16', post('application/json; charset=utf-16', harmless)],

    ['huge Content-Length', '10 GiB declared', declared('10737418240')],
    ['huge Content-Length', 'beyond 64 bits', declared('99999999999999999999999')],
    ['huge Content-Length', 'negative', declared('-1')],
    ['huge Content-Length', 'two different values', declared('7', ['Content-Length: 8'])],
    ['huge Content-Length', 'with chunked too', declared('10737418240', ['Transfer-Encoding: chunked'])],
    ['huge Content-Length', 'on a GET', get('/v1/partner/me', ['Content-Length: 2000000000'])],

    ['invalid percent-encoding', 'truncated UTF-8', get('/v1/partner/items/%E0%A4%A')],
    ['invalid percent-encoding', 'non-hex', get('/v1/partner/items/%zz')],
    ['invalid percent-encoding', 'lone percent', get(`/v1/partner/restaurants/%/items`)],
    ['invalid percent-encoding', 'overlong slash', get('/v1/partner/items/%C0%AF')],
    ['invalid percent-encoding', 'in the query', get(`/v1/partner/restaurants/${options.restaurantId}/items?cursor=%ZZ`)],
    ['invalid percent-encoding', 'raw bytes', get('/v1/partner/%ff%fe')],
    ['invalid percent-encoding', 'NUL', get('/v1/partner/items/%00')],

    [
      'bad chunked body',
      'non-hex size',
      message(
        'POST /v1/partner/webhook-endpoints HTTP/1.1',
        [host, auth, 'Content-Type: application/json', 'Transfer-Encoding: chunked'],
        `zz${CRLF}abc${CRLF}0${CRLF}${CRLF}`,
      ),
    ],
    [
      'bad chunked body',
      'unknown coding',
      message(
        'POST /v1/partner/webhook-endpoints HTTP/1.1',
        [host, auth, 'Content-Type: application/json', 'Transfer-Encoding: gzip, chunked'],
        `1${CRLF}{${CRLF}0${CRLF}${CRLF}`,
      ),
    ],
    [
      'bad chunked body',
      'chunked not last',
      message(
        'POST /v1/partner/webhook-endpoints HTTP/1.1',
        [host, auth, 'Content-Type: application/json', 'Transfer-Encoding: chunked, identity'],
        `1${CRLF}{${CRLF}0${CRLF}${CRLF}`,
      ),
    ],
  ];
  return list.map(([category, name, bytes]) => ({ category, name, bytes }));
}
