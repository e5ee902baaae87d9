import { readdirSync, readFileSync } from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../routing/route-table.js';
import { type GatewayHarness, startGatewayHarness } from '../testing/app-harness.js';
import { buildOpenApiDocument, committedDocument, isPublished, type OpenApiDocument, openApiPath } from './document.js';
import { OPERATIONS, routeKey } from './operations/index.js';

const document = buildOpenApiDocument({ serverUrl: 'http://localhost:8080' });
const complete = buildOpenApiDocument({ serverUrl: 'http://localhost:8080', audience: 'complete' });
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

/** Every `method path` a document describes. */
const documented = (of: OpenApiDocument) =>
  Object.entries(of.paths ?? {})
    .flatMap(([path, item]) =>
      METHODS.filter((method) => (item as Record<string, unknown>)[method]).map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
const asDocumented = (routes: typeof ROUTES) => routes.map((route) => `${route.method} ${openApiPath(route.pattern)}`).sort();

describe('the OpenAPI document', () => {
  it('describes every route of the route table and nothing else; the published one leaves out the embed routes', () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(ROUTES.map(routeKey).sort());
    expect(documented(complete)).toEqual(asDocumented(ROUTES));
    expect(documented(document)).toEqual(asDocumented(ROUTES.filter(isPublished)));
    expect(documented(document).some((operation) => operation.includes('/embed/'))).toBe(false);
  });

  it('is committed as built: run `pnpm openapi` after changing a contract', () => {
    const committed = readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed === committedDocument(), 'docs/openapi.json is stale: run `pnpm openapi`').toBe(true);
  });

  it('lets answers and events gain fields: no schema we send forbids unknown properties', () => {
    const closed: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      if ((node as Record<string, unknown>).additionalProperties === false) closed.push(where);
      for (const [key, child] of Object.entries(node)) walk(child, `${where}/${key}`);
    };
    for (const [path, item] of Object.entries(complete.paths ?? {})) {
      for (const method of METHODS) walk((item as Record<string, { responses?: unknown }>)[method]?.responses, `${method} ${path}`);
    }
    walk(complete.webhooks, 'webhooks');
    walk(complete.components?.schemas, 'components/schemas');
    walk(complete.components?.responses, 'components/responses');
    expect(closed).toEqual([]);
  });

  it('lets value sets grow: every enum we send also admits a string it does not list (spec section 9)', () => {
    const closed: string[] = [];
    const walk = (node: unknown, where: string, open: boolean) => {
      if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${where}/${i}`, false));
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (Array.isArray(schema.enum) && !open && !where.endsWith('/not')) closed.push(where);
      const anyOf = schema.anyOf as Record<string, unknown>[] | undefined;
      // The open form: the known values, or any other string.
      const openAnyOf = anyOf?.length === 2 && Array.isArray(anyOf[0]!.enum) && anyOf[1]!.type === 'string' && !anyOf[1]!.enum;
      for (const [key, child] of Object.entries(schema)) {
        if (key === 'anyOf' && openAnyOf) {
          walk(anyOf[0], `${where}/anyOf/0`, true);
          walk(anyOf[1], `${where}/anyOf/1`, false);
        } else walk(child, `${where}/${key}`, false);
      }
    };
    for (const [path, item] of Object.entries(complete.paths ?? {})) {
      for (const method of METHODS) walk((item as Record<string, { responses?: unknown }>)[method]?.responses, `${method} ${path}`, false);
    }
    walk(complete.components?.schemas, 'components/schemas', false);
    walk(complete.components?.responses, 'components/responses', false);
    walk(complete.components?.headers, 'components/headers', false);
    expect(closed).toEqual([]);
  });

  it('keeps request bodies strict, as the API refuses unknown fields', () => {
    const body = document.paths?.['/v1/partner/webhook-endpoints']?.post?.requestBody as {
      content: { 'application/json': { schema: { additionalProperties?: boolean } } };
    };
    expect(body.content['application/json'].schema.additionalProperties).toBe(false);
  });

  it('names the scope each secret-key route needs, and lets embed routes take publishable keys', () => {
    expect(document.paths?.['/v1/partner/restaurants/{id}/menu']?.get?.security).toEqual([{ secretKey: ['menu:read'] }]);
    expect(complete.paths?.['/v1/partner/embed/items/{id}']?.get?.security).toEqual([
      { publishableKey: [] },
      { secretKey: ['assets:read'] },
    ]);
    expect(document.paths?.['/menu/{id}']?.get?.security).toEqual([]);
  });
});

describe('served by the gateway', () => {
  let harness: GatewayHarness;
  beforeAll(async () => {
    harness = await startGatewayHarness();
  });
  afterAll(() => harness.close());

  it('answers GET /v1/openapi.json without a key, for this deployment', async () => {
    const res = await request(harness.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: harness.config.publicBaseUrl }]);
    expect(Object.keys(res.body.paths)).toEqual(Object.keys(document.paths ?? {}));
    expect(harness.upstream.take()).toEqual([]);
  });

  it('renders the reference at /docs from its own copy of Redoc, under a policy that loads nothing else', async () => {
    const page = await request(harness.app).get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('spec-url="/v1/openapi.json"');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//);
    const bundle = await request(harness.app).get('/docs/redoc.standalone.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(bundle.text).not.toContain('cdn.redoc.ly');
  });

  it("serves every guide of docs/guides and the packages' READMEs as pages under a policy that runs no script", async () => {
    const guides = readdirSync(new URL('../../../../docs/guides/', import.meta.url)).filter((name) => name.endsWith('.md'));
    for (const name of [...guides.filter((guide) => guide !== 'README.md'), 'sdk.md', 'contracts.md']) {
      const page = await request(harness.app).get(`/docs/guides/${name}`);
      expect(page.status, name).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'/);
      expect(page.text).not.toContain('<script');
    }
    const index = await request(harness.app).get('/docs/guides/');
    expect(index.text).toContain('<h1 id="integration-guides">Integration guides</h1>');
    // Links that leave docs/guides in the repository point at what the gateway serves for them.
    expect(index.text).toContain('href="sdk.md"');
    expect(index.text).toContain('href="/v1/openapi.json"');
    expect(index.text).not.toContain('../');
  });

  it('sends /docs/guides to /docs/guides/, where relative links resolve; an unknown guide is 404 not_found', async () => {
    const bare = await request(harness.app).get('/docs/guides');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/docs/guides/');
    for (const path of ['/docs/guides/nope.md', '/docs/guides/..%2F..%2Fpackage.json', '/docs/guides/README']) {
      const res = await request(harness.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
