import { z } from 'zod';

/** Spec 2.1: a single resource is `{ data }`. */
export const zData = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/** Spec 2.1: a list is `{ data: [...], meta: { nextCursor } }`, with room for listing-specific meta. */
export const zList = <T extends z.ZodType, M extends z.ZodRawShape = Record<never, never>>(schema: T, meta?: M) =>
  z.object({
    data: z.array(schema),
    meta: z.object({ nextCursor: z.string().nullable(), ...(meta ?? ({} as M)) }),
  });
