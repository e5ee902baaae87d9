import { createRequire } from 'node:module';
import { z } from 'zod';
import {
  createDocument,
  type oas32,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import {
  ConciergeEventSchemas,
  type ErrorCode,
  statusFor,
  ZAssets,
  ZAssetUrls,
  ZCard,
  ZConciergeBootstrap,
  ZEmbedItem,
  ZErrorBody,
  ZWebhookEvent,
  ZItem,
  ZItemDetail,
  ZKeyMetadata,
  ZMenu,
  ZRestaurant,
  ZTimestamp,
  ZTombstone,
  ZWebhookDelivery,
  ZWebhookEndpoint,
  ZWebhookEndpointWithSecret,
  ZWebhookRecovery,
} from '@partner/contracts';
import { ROUTES, type Access, type Route } from '../routing/route-table.js';
import { OPERATIONS, routeKey, type Operation, type Success, type Tag } from './operations/index.js';
import { GUIDES, INTRODUCTION } from './introduction.js';

// The public API's OpenAPI 3.1 document, built from the route table (paths, methods, who may call)
// and the operations (parameters, bodies, answers), whose schemas are the contracts' zod schemas: the
// same ones the services validate and answer with.

const { version } = createRequire(import.meta.url)('@partner/contracts/package.json') as { version: string };

/** `/items/:id` → `/items/{id}`; a trailing `*` is one `{path}` parameter. */
export const openApiPath = (pattern: string): string => pattern.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{path}');

type Responses = Record<string, ZodOpenApiResponseObject>;

const MUTATING = new Set(['POST', 'PATCH', 'DELETE']);

/** Errors any route can answer, whoever calls it: the gateway's own, and faults of what it depends on. */
const EVERY_ROUTE: ErrorCode[] = [
  'request_timeout',
  'request_header_fields_too_large',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];
/** Errors of routes that take a key, before the route itself is reached. */
const KEYED: ErrorCode[] = [
  'invalid_api_key',
  'forbidden_scope',
  'forbidden_key_type',
  'account_suspended',
  'subscription_inactive',
  'quota_exceeded',
  'method_not_allowed',
];
const WITH_BODY: ErrorCode[] = ['payload_too_large', 'unsupported_media_type', 'invalid_request'];
/** A query is strict (unknown parameters refused); one that pages takes a cursor, checked against its filters. */
const WITH_QUERY: ErrorCode[] = ['invalid_request'];
const PAGED: ErrorCode[] = ['invalid_cursor', 'cursor_filter_mismatch'];
/** Every keyed POST, PATCH and DELETE takes an `Idempotency-Key` (a malformed one is `invalid_request`). */
const IDEMPOTENT: ErrorCode[] = ['invalid_request', 'idempotency_key_conflict', 'idempotency_key_in_use'];

/** A response header, defined once under `components.headers` and referred to everywhere. */
const header = (id: string, description: string, schema: z.ZodType = z.string()) => schema.meta({ description, header: { id } });
const count = () =>
  z
    .int()
    .min(0)
    .meta({ override: { minimum: 0, maximum: undefined } });

const HEADERS = {
  requestId: header('RequestId', 'Names this request; quote it to support.'),
  environment: header('Environment', '`live` or `test`: the environment of the key the request was made with.', z.enum(['live', 'test'])),
  limit: header('RateLimitLimit', 'Requests this key may make per minute (on a route without a key: this client address).', count()),
  remaining: header('RateLimitRemaining', 'Requests left in the current minute.', count()),
  reset: header('RateLimitReset', 'Seconds until the minute resets.', count()),
  retryAfter: header('RetryAfter', 'Seconds to wait before trying again.', count()),
  allow: header('Allow', 'The methods this path does allow.'),
  etag: header('ETag', 'The version of this answer; send it back as `If-None-Match`.'),
  contentRange: header('ContentRange', 'Which bytes of the file these are, such as `bytes 0-65535/812345`.'),
};

/**
 * Every answer names its request and the environment of its key; one that got past the rate limit also
 * says where the key (on a public route, the client address) stands in it (errors may come before it:
 * they do not promise it).
 */
const answerHeaders = (rateLimited: boolean, extra: Record<string, z.ZodType> = {}) =>
  z.object({
    'X-Request-Id': HEADERS.requestId,
    'X-Service-Environment': HEADERS.environment,
    ...(rateLimited
      ? { 'X-RateLimit-Limit': HEADERS.limit, 'X-RateLimit-Remaining': HEADERS.remaining, 'X-RateLimit-Reset': HEADERS.reset }
      : {}),
    ...extra,
  });

const errorBody = (codes: ErrorCode[]) =>
  z.object({
    error: ZErrorBody.shape.error.extend({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).meta({ description: 'What went wrong, for programs: branch on this.' }),
    }),
  });

function errorCodesOf(route: Route, operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...EVERY_ROUTE, ...operation.errors]);
  if (route.access.kind !== 'public') KEYED.forEach((code) => codes.add(code));
  if (route.access.kind === 'embed') codes.add('origin_not_allowed');
  if (operation.body) WITH_BODY.forEach((code) => codes.add(code));
  if (operation.query) WITH_QUERY.forEach((code) => codes.add(code));
  if (operation.query?.shape.cursor) PAGED.forEach((code) => codes.add(code));
  if (MUTATING.has(route.method) && route.access.kind !== 'public') IDEMPOTENT.forEach((code) => codes.add(code));
  return [...codes];
}

const pascalCase = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** Error answers by component id: the same answer on many routes is one object, registered once. */
type SharedResponses = Map<string, ZodOpenApiResponseObject>;

function errorResponses(route: Route, operation: Operation, shared: SharedResponses): Responses {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route, operation)) {
    const status = statusFor(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Responses = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const extra: Record<string, z.ZodType> = {};
    if (status === 429 || status === 503) extra['Retry-After'] = HEADERS.retryAfter;
    if (status === 405) extra.Allow = HEADERS.allow;
    // The same answer on many routes is written once, under components.responses (one object per id).
    const id = `${codes.map(pascalCase).join('Or')}Response`;
    responses[String(status)] = shared.get(id) ?? {
      id,
      description: codes.map((code) => `\`${code}\``).join(', '),
      headers: answerHeaders(false, extra),
      content: { 'application/json': { schema: errorBody(codes) } },
    };
    shared.set(id, responses[String(status)]!);
  }
  return responses;
}

const STREAM_EVENT_NAMES = Object.keys(ConciergeEventSchemas);

/**
 * An event kind added after this document (spec section 9: new kinds may come within v1). Its name is
 * none of the known ones, so a known event is still held to its own schema.
 */
const ZLaterStreamEvent = z
  .object({
    event: z.string().meta({ override: { type: 'string', not: { enum: STREAM_EVENT_NAMES } } }),
    data: z.unknown(),
  })
  .meta({ description: 'An event kind this document does not know yet: skip it.' });

/** One SSE message of a concierge turn: its `event:` name and its `data:`, parsed. */
export const ZConciergeStreamEvent = z
  .union([...Object.entries(ConciergeEventSchemas).map(([event, data]) => z.object({ event: z.literal(event), data })), ZLaterStreamEvent])
  .meta({
    id: 'ConciergeStreamEvent',
    description:
      'A message of the stream, shown as its `event:` field and its `data:` field parsed as JSON. On the wire: `event: delta\\ndata: {"text":"…"}\\n\\n`. A line starting with `:` is a heartbeat; ignore it, and skip any event kind you do not know.',
  });

/** The files catalog serves (`ASSET_FILES` of @partner/assets; e2e's conformance check holds the two together). */
const FILE_TYPES = ['model/vnd.usdz+zip', 'model/gltf-binary', 'image/png', 'image/jpeg', 'image/webp'];

function successResponses(route: Route, success: Success, conditional: boolean): Responses {
  // Every success got past a rate limit: the key's, or on a public route the client address's.
  const headers = answerHeaders(true, conditional ? { ETag: HEADERS.etag } : {});
  const responses: Responses = {};
  switch (success.kind) {
    case 'json':
      for (const { status, description } of [success, ...(success.also ? [success.also] : [])]) {
        responses[String(status)] = { description, headers, content: { 'application/json': { schema: success.schema } } };
      }
      break;
    case 'sse':
      responses['200'] = { description: success.description, headers, content: { 'text/event-stream': { schema: ZConciergeStreamEvent } } };
      break;
    case 'html':
      responses['200'] = { description: success.description, headers, content: { 'text/html': { schema: z.string() } } };
      break;
    case 'file': {
      const content = Object.fromEntries(FILE_TYPES.map((type) => [type, { schema: { type: 'string' as const, contentMediaType: type } }]));
      const fileHeaders = answerHeaders(true, { ETag: HEADERS.etag });
      responses['200'] = { description: success.description, headers: fileHeaders, content };
      responses['206'] = {
        description: 'The requested range of the file.',
        headers: answerHeaders(true, { 'Content-Range': HEADERS.contentRange }),
        content,
      };
      break;
    }
  }
  if (conditional)
    responses['304'] = {
      description: 'Not modified: the `ETag` sent in `If-None-Match` is still current.',
      headers: answerHeaders(true, { ETag: HEADERS.etag }),
    };
  return responses;
}

function securityOf(access: Access): Record<string, string[]>[] {
  switch (access.kind) {
    case 'public':
      return [];
    case 'secret':
      return [{ secretKey: access.scope ? [access.scope] : [] }];
    case 'embed':
      return [{ publishableKey: [] }, { secretKey: [access.secretScope] }];
  }
}

function requestHeaders(route: Route, operation: Operation): z.ZodObject | undefined {
  const shape: Record<string, z.ZodType> = {};
  if (MUTATING.has(route.method) && route.access.kind !== 'public') {
    shape['Idempotency-Key'] = z
      .string()
      .regex(/^[\x21-\x7e]{1,255}$/)
      .optional()
      .meta({
        description: 'Makes a retry safe: the same key and body within 24 hours answers the first answer again, without doing it twice.',
      });
  }
  if (operation.conditional) shape['If-None-Match'] = z.string().optional().meta({ description: 'The `ETag` of the answer you have.' });
  if (operation.success.kind === 'file')
    shape.Range = z.string().optional().meta({ description: 'One byte range, such as `bytes=0-65535`.' });
  if (route.access.kind === 'embed')
    shape.Origin = z
      .string()
      .optional()
      .meta({ description: "The page's origin; publishable keys answer only to the origins they allow." });
  return Object.keys(shape).length ? z.object(shape) : undefined;
}

function operationObject(route: Route, shared: SharedResponses): ZodOpenApiOperationObject {
  const operation = OPERATIONS[routeKey(route)];
  if (!operation) throw new Error(`The route ${routeKey(route)} has no operation in openapi/operations.`);
  const body = operation.body;
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: securityOf(route.access),
    requestParams: {
      ...(operation.path ? { path: z.object(operation.path) } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(requestHeaders(route, operation) ? { header: requestHeaders(route, operation) } : {}),
    },
    ...(body ? { requestBody: { required: !body.safeParse({}).success, content: { 'application/json': { schema: body } } } } : {}),
    responses: {
      ...successResponses(route, operation.success, operation.conditional ?? false),
      ...errorResponses(route, operation, shared),
    },
  };
}

function paths(routes: readonly Route[], shared: SharedResponses): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item = (out[openApiPath(route.pattern)] ??= {});
    (item as Record<string, ZodOpenApiOperationObject>)[route.method.toLowerCase()] = operationObject(route, shared);
  }
  return out;
}

/** Every event a webhook endpoint can receive, as the `webhooks` of the document. */
function webhooks(): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const event of ZWebhookEvent.options) {
    const type = event.shape.type.value;
    out[type] = {
      post: {
        operationId: `webhook_${type.replace('.', '_')}`,
        tags: ['Webhooks'],
        summary: `${type} event`,
        security: [{ serviceSignature: [] }, { standardWebhooks: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: event } } },
        responses: {
          '200': { description: 'Any 2xx answer within 10 seconds acknowledges the event; anything else is retried.' },
        },
      },
    };
  }
  return out;
}

const TAGS: { name: Tag; description: string }[] = [
  { name: 'Account', description: 'The key you call with.' },
  { name: 'Restaurants', description: 'The restaurants a key reaches.' },
  { name: 'Items', description: 'Dishes: list, sync, detail.' },
  { name: 'Menu', description: 'The published menu, with ETag caching.' },
  { name: 'Assets', description: 'Signed URLs for 3D models (USDZ, GLB) and thumbnails.' },
  { name: 'Webhooks', description: 'Endpoints, deliveries and the events they receive.' },
  { name: 'Concierge', description: 'The grounded AI assistant, streamed as Server-Sent Events.' },
  { name: 'Embeds', description: 'What the browser embeds call with publishable keys, and the public menu page.' },
];

/**
 * Response schemas admit fields added later (clients ignore what they do not know); request bodies
 * stay strict, as the API refuses unknown fields. zod names some string checks as formats JSON Schema
 * does not know (`starts_with`); their `pattern` says the same in the standard's words.
 */
const adjustSchema = ({ jsonSchema, io }: { jsonSchema: Record<string, unknown>; io: 'input' | 'output' }) => {
  if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  if (io === 'output') openEnum(jsonSchema);
  if (jsonSchema.format && jsonSchema.pattern && typeof jsonSchema.format === 'string' && !STANDARD_FORMATS.has(jsonSchema.format))
    delete jsonSchema.format;
};
/**
 * A set of values we send (an error code, a status, a scope) may grow within v1 (spec section 9): the
 * document lists the known values and admits any other string, which clients treat as unknown.
 */
function openEnum(jsonSchema: Record<string, unknown>) {
  const values = jsonSchema.enum;
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) return;
  delete jsonSchema.enum;
  delete jsonSchema.type;
  jsonSchema.anyOf = [
    { type: 'string', enum: values },
    { type: 'string', description: 'A value added after this document: treat it as unknown.' },
  ];
}
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'duration', 'email', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname', 'regex']);

export type OpenApiDocument = oas32.OpenAPIObject;

/**
 * The embed routes are what our own scripts call; the spec keeps them out of the published reference
 * (section 4.7). `complete` includes them, for the tests that hold every answer to the document.
 */
const PUBLISHABLE_KEY = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'svc_pk_live_… or svc_pk_test_…',
  description: 'A publishable key, safe in a web page: it works only on embed routes and only from the origins it allows.',
} as const;

export type Audience = 'published' | 'complete';

/** Whether the published reference shows a route. */
export const isPublished = (route: Route): boolean => route.access.kind !== 'embed';

export function buildOpenApiDocument(options: { serverUrl: string; audience?: Audience }): OpenApiDocument {
  const routes = options.audience === 'complete' ? ROUTES : ROUTES.filter(isPublished);
  const embedSchemas: Record<string, z.ZodType> =
    options.audience === 'complete' ? { EmbedItem: ZEmbedItem, ConciergeBootstrap: ZConciergeBootstrap } : {};
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Partner API',
        version,
        summary: 'Restaurant menus, true-to-size 3D dish models, webhooks and the AI concierge.',
        description: `${INTRODUCTION}\n\n${GUIDES}`,
      },
      servers: [{ url: options.serverUrl }],
      externalDocs: { description: 'Integration guides', url: `${options.serverUrl}/docs/guides/` },
      tags: TAGS,
      paths: paths(routes, new Map()),
      webhooks: webhooks(),
      components: {
        securitySchemes: {
          ...(options.audience === 'complete' ? { publishableKey: PUBLISHABLE_KEY } : {}),
          secretKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'svc_sk_live_… or svc_sk_test_…',
            description: 'A secret key, from your server only. The listed scopes are the ones the key must hold.',
          },
          serviceSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Service-Signature',
            description:
              'How we sign what we send you: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{raw body}" keyed with the endpoint secret>`, one `v1` per valid secret during a rotation. Verify it before you trust the body.',
          },
          standardWebhooks: {
            type: 'apiKey',
            in: 'header',
            name: 'webhook-signature',
            description:
              'For endpoints with `signatureScheme: "standard-webhooks"` (www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}">`, keyed with the base64-decoded part of the secret after `whsec_`. The standardwebhooks and svix libraries verify it.',
          },
        },
        schemas: {
          Timestamp: ZTimestamp,
          Restaurant: ZRestaurant,
          Item: ZItem,
          Tombstone: ZTombstone,
          ItemDetail: ZItemDetail,
          Assets: ZAssets,
          AssetUrls: ZAssetUrls,
          Menu: ZMenu,
          KeyMetadata: ZKeyMetadata,
          WebhookEndpoint: ZWebhookEndpoint,
          WebhookEndpointWithSecret: ZWebhookEndpointWithSecret,
          WebhookDelivery: ZWebhookDelivery,
          WebhookRecovery: ZWebhookRecovery,
          ConciergeCard: ZCard,
          ...embedSchemas,
        },
      },
    },
    { override: adjustSchema },
  );
  return withOutputNamesPlain(document);
}

/**
 * A component whose answers differ from its request form (an open enum) is written twice by
 * zod-openapi, as `Item` and `ItemOutput`. Only answers use our components, so the request form goes
 * unreferenced: the answer form takes the plain name.
 */
function withOutputNamesPlain(document: OpenApiDocument): OpenApiDocument {
  const ref = (name: string) => `"#/components/schemas/${name}"`;
  const plainOf = (name: string) => name.slice(0, -'Output'.length);
  const schemas = document.components?.schemas ?? {};
  let text = JSON.stringify(document);
  const renamed = Object.keys(schemas).filter(
    (name) => name.endsWith('Output') && plainOf(name) in schemas && !text.includes(ref(plainOf(name))),
  );
  for (const name of renamed) text = text.replaceAll(ref(name), ref(plainOf(name)));
  const out = JSON.parse(text) as OpenApiDocument;
  for (const name of renamed) {
    out.components!.schemas![plainOf(name)] = out.components!.schemas![name]!;
    delete out.components!.schemas![name];
  }
  return out;
}

/** The document as committed to docs/openapi.json: for the local stack, formatted for review. */
export const committedDocument = (): string => `${JSON.stringify(buildOpenApiDocument({ serverUrl: 'http://localhost:8080' }), null, 2)}\n`;
