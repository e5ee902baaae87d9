import { z } from 'zod';

export const PAGE_LIMIT = { default: 100, max: 1000 } as const;

/** `limit` as sent in a query string: digits only, 1 to 1000, default 100. */
export const zLimit = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be at least 1').max(PAGE_LIMIT.max, `must be at most ${PAGE_LIMIT.max}`))
  .default(PAGE_LIMIT.default);

export const zCursorParam = z.string().min(1, 'must not be empty').optional();
