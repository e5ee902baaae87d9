import type { z } from 'zod';
import { type ErrorCode, type IdPrefix, zId } from '@partner/contracts';
import type { Route } from '../../routing/route-table.js';

// What the route table does not say about each public route: its parameters, body, answers and the
// errors it can give beyond those of the gateway itself. The OpenAPI document is built from these and
// the route table together; a test keeps the two in step.

export type Tag = 'Account' | 'Restaurants' | 'Items' | 'Menu' | 'Assets' | 'Embeds' | 'Webhooks' | 'Concierge';

export type Success =
  | {
      kind: 'json';
      status: 200 | 201 | 202;
      schema: z.ZodType;
      description: string;
      /** A second success with the same body: the route also answers this status. */
      also?: { status: 200; description: string };
    }
  | { kind: 'sse'; description: string }
  | { kind: 'file'; description: string }
  | { kind: 'html'; description: string };

export interface Operation {
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Path parameters by name, as the pattern names them (`:id`, and `path` for a trailing `*`). */
  path?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  body?: z.ZodType;
  success: Success;
  /** Answers carry an `ETag`; a request whose `If-None-Match` names the current one gets 304 and no body. */
  conditional?: boolean;
  /**
   * Errors of this route's own, beyond those the document derives: the gateway's (authentication,
   * limits, faults) and those of a body, a query, a cursor and an `Idempotency-Key`.
   */
  errors: ErrorCode[];
}

export type RouteKey = `${string} ${string}`;
export const routeKey = (route: Pick<Route, 'method' | 'pattern'>): RouteKey => `${route.method} ${route.pattern}`;

/** An `{id}` path parameter. */
export const pathId = (prefix: IdPrefix, description: string) => ({ id: zId(prefix).meta({ description }) });
