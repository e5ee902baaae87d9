import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createParser } from 'eventsource-parser';
import { type ErrorCode, statusFor, ZErrorBody, ZErrorCode } from '@partner/contracts';
import { buildOpenApiDocument } from '@partner/gateway';

// Holds the OpenAPI document to what the gateway really answers: every answer the end-to-end suite
// receives through a gateway of the stack is checked against the operation it belongs to (status,
// required headers, content type, body; each event of a stream), errors included. A stack fails its
// `stop()` with the answers that did not conform. The document is the complete one: the published
// document (docs/openapi.json, which a gateway test holds to the code) plus the embed routes.

export interface Exchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  /** Names in lower case, as Node keeps them. */
  headers: Record<string, unknown>;
  body: Buffer;
}

type Json = Record<string, any>;

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

/** The document, compiled once per process: paths as patterns, schemas by JSON pointer. */
export class DocumentValidator {
  private readonly document: Json = buildOpenApiDocument({ serverUrl: 'http://gateway.test', audience: 'complete' });
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly paths = Object.keys(this.document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{path\}$/, '.+').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  constructor() {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(this.document, 'openapi');
  }

  /** What is wrong with an answer, or null when it conforms. */
  check(exchange: Exchange): string | null {
    if (!exchange.path.startsWith('/v1/') && !exchange.path.startsWith('/menu/')) return null; // scripts, health, the reference
    if (exchange.path === '/v1/openapi.json') return null;
    // CORS preflights are the browser's business, answered for embed routes; no operation of the API.
    if (exchange.method === 'OPTIONS') return null;
    const operation = this.operationOf(exchange);
    // No such route (or no such method on it): still the error envelope, with a code of ours.
    if (!operation) return checkUnrouted(exchange);
    const responseKey = String(exchange.status);
    let response = operation.node.responses?.[responseKey];
    if (!response) return `${operation.name} answered ${exchange.status}, which the document does not list`;
    let pointer = `${operation.pointer}/responses/${responseKey}`;
    if (response.$ref) {
      pointer = response.$ref;
      response = this.resolve(response.$ref);
    }
    const missing = Object.entries<Json>(response.headers ?? {})
      .filter(
        ([name, header]) =>
          (header.$ref ? this.resolve(header.$ref) : header).required && exchange.headers[name.toLowerCase()] === undefined,
      )
      .map(([name]) => name);
    if (missing.length) return `${operation.name} ${exchange.status} lacks ${missing.join(', ')}`;
    if (!response.content)
      return exchange.body.length && exchange.method !== 'HEAD'
        ? `${operation.name} ${exchange.status} has a body the document does not describe`
        : null;
    const type = Object.keys(response.content).find((name) => exchange.contentType.startsWith(name));
    if (!type)
      return `${operation.name} ${exchange.status} answered ${exchange.contentType || 'no content type'}, the document lists ${Object.keys(response.content).join(', ')}`;
    if (exchange.method === 'HEAD') return null;
    const schemaPointer = `${pointer}/content/${type.replace('/', '~1')}/schema`;
    if (type === 'application/json') return this.validate(exchange, schemaPointer, operation.name);
    if (type === 'text/event-stream') return this.validateStream(exchange, schemaPointer, operation.name);
    return null;
  }

  private operationOf({ method, path }: Exchange) {
    const lower = method.toLowerCase();
    for (const { template, pattern } of this.paths) {
      if (!pattern.test(path) || !METHODS.includes(lower)) continue;
      // A HEAD answers as its GET does, without the body (RFC 9110): the document lists the GET.
      const documented = this.document.paths[template][lower] ? lower : lower === 'head' ? 'get' : null;
      const node = documented && this.document.paths[template][documented];
      if (node)
        return {
          node,
          name: `${method} ${template}`,
          pointer: `#/paths/${template.replaceAll('~', '~0').replaceAll('/', '~1')}/${documented}`,
        };
    }
    return null;
  }

  private resolve(ref: string): Json {
    return ref
      .slice(2)
      .split('/')
      .reduce((node: Json, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], this.document);
  }

  private schema(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private validate(exchange: Exchange, pointer: string, name: string): string | null {
    const body = parseJson(exchange.body.toString('utf8'));
    if (body === undefined) return `${name} ${exchange.status} is not JSON`;
    const validate = this.schema(pointer);
    if (validate(body)) return null;
    return `${name} ${exchange.status}: ${this.ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 400)}`;
  }

  private validateStream(exchange: Exchange, pointer: string, name: string): string | null {
    const problems: string[] = [];
    const validate = this.schema(pointer);
    const parser = createParser({
      onEvent: (message) => {
        const data = parseJson(message.data);
        if (data === undefined) return void problems.push(`${message.event}: data is not JSON: ${message.data.slice(0, 200)}`);
        if (!validate({ event: message.event ?? 'message', data })) {
          problems.push(`${message.event}: ${this.ajv.errorsText(validate.errors)} in ${message.data.slice(0, 200)}`);
        }
      },
    });
    parser.feed(exchange.body.toString('utf8'));
    return problems.length ? `${name} stream: ${problems.join('; ')}` : null;
  }
}

function checkUnrouted(exchange: Exchange): string | null {
  const where = `${exchange.method} ${exchange.path} (no such operation)`;
  if (exchange.status < 400) return `${where} answered ${exchange.status}`;
  const parsed = ZErrorBody.safeParse(parseJson(exchange.body.toString('utf8')));
  if (!parsed.success) return `${where} ${exchange.status} is not the error envelope`;
  const code = parsed.data.error.code;
  return ZErrorCode.safeParse(code).success && statusFor(code as ErrorCode) === exchange.status
    ? null
    : `${where} answered ${exchange.status} ${code}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

let validator: DocumentValidator | null = null;

/** Bodies worth keeping: what the document describes with a schema (files are checked by type only). */
const captured = (contentType: string) => contentType.startsWith('application/json') || contentType.startsWith('text/event-stream');

/**
 * Records every answer that servers listening on `ports` of this process give, and checks them on
 * `verify()`. Node's HTTP diagnostics channels see each request; the body is copied as it is written.
 */
export function watchAnswers(ports: number[]) {
  validator ??= new DocumentValidator();
  const checker = validator;
  const problems: string[] = [];
  const watched = new Set(ports);
  const onRequest = (message: unknown) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    if (!watched.has(request.socket.localPort ?? -1)) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      if (!captured(String(response.getHeader('content-type') ?? ''))) return;
      chunks.push(
        Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    const write = response.write.bind(response);
    const end = response.end.bind(response);
    response.write = ((chunk: unknown, ...rest: unknown[]) => (
      keep(chunk, rest[0]),
      write(chunk, ...(rest as [never]))
    )) as typeof response.write;
    response.end = ((chunk?: unknown, ...rest: unknown[]) => (
      keep(chunk, rest[0]),
      end(chunk as never, ...(rest as [never]))
    )) as typeof response.end;
    // `close` also ends a stream its client gave up on: the events it did receive are checked.
    response.once('close', () => {
      // A client gone before any answer was written (a closed tab, an abort) was answered nothing.
      if (!response.headersSent) return;
      const exchange: Exchange = {
        method: request.method ?? 'GET',
        path: new URL(request.url ?? '/', 'http://gateway').pathname,
        status: response.statusCode,
        contentType: String(response.getHeader('content-type') ?? ''),
        headers: response.getHeaders(),
        body: Buffer.concat(chunks),
      };
      const problem = checker.check(exchange);
      if (problem) problems.push(problem);
    });
  };
  subscribe('http.server.request.start', onRequest);
  return {
    /** Throws with every answer that did not conform to the document. */
    verify() {
      unsubscribe('http.server.request.start', onRequest);
      if (problems.length) {
        throw new Error(`${problems.length} answer(s) do not conform to docs/openapi.json:\n- ${[...new Set(problems)].join('\n- ')}`);
      }
    },
  };
}
