import type { TScope } from '@partner/contracts';

export type ServiceName = 'catalog' | 'webhooks' | 'concierge';

/**
 * Who may call a route:
 * - `secret`: secret keys holding `scope` (none: any valid secret key);
 * - `embed`: publishable keys from an allowed origin, or secret keys holding `secretScope`;
 * - `public`: no key at all (signed asset files carry their own signature).
 */
export type Access = { kind: 'secret'; scope: TScope | null } | { kind: 'embed'; secretScope: TScope } | { kind: 'public' };

export type Target = { kind: 'service'; service: ServiceName } | { kind: 'local'; handler: 'me' };

export interface Route {
  method: string;
  /** Segments; `:name` matches one segment, a trailing `*` the rest of the path. */
  pattern: string;
  access: Access;
  target: Target;
}

const secret = (scope: TScope | null) => ({ kind: 'secret', scope }) as const;
const embed = (secretScope: TScope) => ({ kind: 'embed', secretScope }) as const;
const to = (service: ServiceName) => ({ kind: 'service', service }) as const;

/** Every public route of v1 (spec section 4 and DESIGN.md section 4), the only ones the gateway serves. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: '/v1/partner/me', access: secret(null), target: { kind: 'local', handler: 'me' } },

  { method: 'GET', pattern: '/v1/partner/restaurants', access: secret('menu:read'), target: to('catalog') },
  { method: 'GET', pattern: '/v1/partner/restaurants/:id/items', access: secret('menu:read'), target: to('catalog') },
  { method: 'GET', pattern: '/v1/partner/restaurants/:id/menu', access: secret('menu:read'), target: to('catalog') },
  { method: 'GET', pattern: '/v1/partner/items/:id', access: secret('assets:read'), target: to('catalog') },
  { method: 'POST', pattern: '/v1/partner/items/:id/asset-urls', access: secret('assets:read'), target: to('catalog') },
  { method: 'GET', pattern: '/v1/partner/embed/items/:id', access: embed('assets:read'), target: to('catalog') },
  { method: 'GET', pattern: '/v1/assets/*', access: { kind: 'public' }, target: to('catalog') },
  { method: 'HEAD', pattern: '/v1/assets/*', access: { kind: 'public' }, target: to('catalog') },
  { method: 'GET', pattern: '/menu/:id', access: { kind: 'public' }, target: to('catalog') },

  { method: 'GET', pattern: '/v1/partner/webhook-endpoints', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'POST', pattern: '/v1/partner/webhook-endpoints', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'GET', pattern: '/v1/partner/webhook-endpoints/:id', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'PATCH', pattern: '/v1/partner/webhook-endpoints/:id', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'DELETE', pattern: '/v1/partner/webhook-endpoints/:id', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'POST', pattern: '/v1/partner/webhook-endpoints/:id/rotate-secret', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'POST', pattern: '/v1/partner/webhook-endpoints/:id/recover', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'POST', pattern: '/v1/partner/webhook-endpoints/:id/test', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'GET', pattern: '/v1/partner/webhook-deliveries', access: secret('webhooks:manage'), target: to('webhooks') },
  { method: 'POST', pattern: '/v1/partner/webhook-deliveries/:id/resend', access: secret('webhooks:manage'), target: to('webhooks') },

  { method: 'POST', pattern: '/v1/partner/restaurants/:id/concierge/chat', access: secret('concierge:chat'), target: to('concierge') },
  { method: 'GET', pattern: '/v1/partner/embed/restaurants/:id/concierge', access: embed('concierge:chat'), target: to('concierge') },
  { method: 'POST', pattern: '/v1/partner/embed/restaurants/:id/concierge/chat', access: embed('concierge:chat'), target: to('concierge') },
];

export type RouteMatch =
  { kind: 'found'; route: Route; params: Record<string, string> } | { kind: 'method-not-allowed'; allow: string[] } | { kind: 'none' };

/** A pattern split once: literal segments, a parameter's name (`:id` → `id`), and whether it ends in `*`. */
export interface CompiledRoute {
  route: Route;
  segments: ({ literal: string } | { param: string })[];
  rest: boolean;
}

function compile(route: Route): CompiledRoute {
  const parts = route.pattern.split('/');
  const rest = parts.at(-1) === '*';
  const segments = (rest ? parts.slice(0, -1) : parts).map((part) => (part.startsWith(':') ? { param: part.slice(1) } : { literal: part }));
  return { route, segments, rest };
}

function matches(compiled: CompiledRoute, have: string[]): boolean {
  const { segments, rest } = compiled;
  if (rest ? have.length <= segments.length : have.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const actual = have[i]!;
    if ('param' in segment ? actual === '' : segment.literal !== actual) return false;
  }
  return !rest || have.slice(segments.length).every((part) => part !== '');
}

/**
 * A route's path parameters, percent-decoded as the service's router will decode them, so that the
 * gateway counts a request against the same id the service acts on (`rst%5Fx` is `rst_x` to both).
 */
function paramsOf(compiled: CompiledRoute, have: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  compiled.segments.forEach((segment, i) => {
    if (!('param' in segment)) return;
    try {
      params[segment.param] = decodeURIComponent(have[i]!);
    } catch {
      params[segment.param] = have[i]!;
    }
  });
  return params;
}

export interface PathMatch {
  /** Routes at this path, whatever their method. */
  routes: Route[];
  /** Whether one of them is an embed route (CORS preflights are answered for those only). */
  embed: boolean;
  /** The path's segments and the compiled routes that matched them. */
  segments: string[];
  compiled: CompiledRoute[];
}

export function createRouter(routes: readonly Route[]) {
  const compiled = routes.map(compile);
  return {
    /** Every route at a path; the path is split once, the patterns were split at start-up. */
    atPath(path: string): PathMatch {
      const have = path.split('/');
      const found = compiled.filter((candidate) => matches(candidate, have));
      const routes = found.map((candidate) => candidate.route);
      return { routes, embed: routes.some((route) => route.access.kind === 'embed'), segments: have, compiled: found };
    },
    match(atPath: PathMatch, method: string): RouteMatch {
      if (atPath.routes.length === 0) return { kind: 'none' };
      const found =
        atPath.compiled.find((candidate) => candidate.route.method === method) ??
        // Every GET answers HEAD too (RFC 9110, section 9.3.2): the same headers, no body.
        (method === 'HEAD' ? atPath.compiled.find((candidate) => candidate.route.method === 'GET') : undefined);
      if (found) return { kind: 'found', route: found.route, params: paramsOf(found, atPath.segments) };
      const methods = atPath.routes.flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]));
      return { kind: 'method-not-allowed', allow: [...new Set(methods)] };
    },
  };
}
