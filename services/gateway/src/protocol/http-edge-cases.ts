import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, statusFor } from '@partner/contracts';
import { errorBody, type Logger, newRequestId } from '@partner/http';

/**
 * Requests that announced `Expect: 100-continue` and have not been told to send their body yet.
 * Node answers `100 Continue` by itself unless the server listens for 'checkContinue'; the gateway
 * does, so the body limit, the key, the rate limit and the route's rights are checked first.
 */
const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * Tells a client that announced `Expect: 100-continue` to send its body, once the gateway has
 * accepted the request (called just before the body is forwarded). A no-op for any other request.
 */
export function continueIfAwaited(req: IncomingMessage, res: ServerResponse): void {
  if (!awaitingContinue.delete(req)) return;
  res.removeHeader('Connection');
  res.writeContinue();
}

const PARSER_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'request_header_fields_too_large', message: 'The request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request did not arrive in time.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'payload_too_large', message: 'The chunk extensions of the request body are too large.' },
  HPE_INVALID_METHOD: { code: 'invalid_request', message: 'The request method is not one this server knows (methods are upper case).' },
  HPE_INVALID_URL: { code: 'invalid_request', message: 'The request target is malformed.' },
  HPE_INVALID_VERSION: { code: 'invalid_request', message: 'The HTTP version is not supported.' },
  HPE_INVALID_HEADER_TOKEN: { code: 'invalid_request', message: 'A request header is malformed.' },
};
const MALFORMED = { code: 'invalid_request', message: 'The request is not valid HTTP/1.1.' } as const;

/** A complete HTTP/1.1 answer in the JSON envelope, written straight to a socket the parser gave up on. */
export function rawErrorResponse(code: ErrorCode, message: string, requestId: string): string {
  const status = statusFor(code);
  const body = JSON.stringify(errorBody(code, message, requestId));
  return [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    `X-Request-Id: ${requestId}`,
    'X-Service-Environment: live',
    '',
    body,
  ].join('\r\n');
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * The places where Node answers for the app unless told otherwise:
 * - `Expect: 100-continue` ('checkContinue'): the request goes to the app without `100 Continue`;
 *   the edge sends it (`continueIfAwaited`) only once the request is accepted. An answer given
 *   before that closes the connection, since the client may still send the body it announced.
 * - requests the HTTP parser refuses ('clientError': an unknown or lower-case method, malformed
 *   header syntax, headers too large, a bad request line): Node's own answer is an empty 400 or 431
 *   without a request id. The gateway writes the platform's envelope instead, while the socket can
 *   still take an answer.
 * - an `Expect` other than 100-continue ('checkExpectation', Node's empty 417) and CONNECT
 *   ('connect', a connection closed without an answer).
 */
export function handleHttpEdgeCases(server: Server, app: RequestListener, logger: Logger): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    res.setHeader('Connection', 'close');
    app(req, res);
  });
  // An expectation other than 100-continue: Node would answer an empty 417. RFC 9110 lets a server
  // ignore it (10.1.1), and the proxy never forwards Expect, so the request is served as it is.
  server.on('checkExpectation', app);
  // CONNECT: without a listener Node closes the connection without a word. The gateway is no
  // tunnel; it says so in the envelope.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse('invalid_request', 'CONNECT is not supported: this server is not a proxy.', newRequestId()), () =>
      socket.destroy(),
    );
  });
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    // A response of this connection already under way: nothing well-formed can follow it.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { code, message } = (err.code && PARSER_ERRORS[err.code]) || MALFORMED;
    const requestId = newRequestId();
    logger.debug({ requestId, parserError: err.code }, 'malformed request refused');
    socket.end(rawErrorResponse(code, message, requestId), () => socket.destroy());
  });
}
