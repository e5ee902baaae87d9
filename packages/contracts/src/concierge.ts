import { z } from 'zod';
import { zId } from './ids.js';

export const CONCIERGE_MESSAGE_MAX = 2000;
export const CONCIERGE_HISTORY_MAX = 20;

/** Strict: `model`, `system`, `messages`, `temperature` and any other field are refused (spec 4.6). */
export const ZChatRequest = z.strictObject({
  message: z.string().trim().min(1).max(CONCIERGE_MESSAGE_MAX),
  history: z
    .array(
      z.strictObject({
        role: z.enum(['user', 'assistant']),
        content: z.string().min(1).max(CONCIERGE_MESSAGE_MAX),
      }),
    )
    .max(CONCIERGE_HISTORY_MAX)
    .optional(),
  locale: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)
    .optional(),
});
export type TChatRequest = z.infer<typeof ZChatRequest>;

export const ZCard = z.object({
  itemId: zId('itm'),
  name: z.string(),
  priceCents: z.number().int(),
  currency: z.string(),
  thumbnailUrl: z.string().nullable(),
  url: z.string(),
});

/** The SSE events of a concierge turn, keyed by the SSE `event:` name. */
export const ConciergeEventSchemas = {
  meta: z.object({
    turnId: zId('trn'),
    restaurant: z.object({ id: zId('rst'), name: z.string() }),
    disclosure: z.string().min(1),
    currency: z.string(),
    testMode: z.boolean(),
  }),
  delta: z.object({ text: z.string() }),
  cards: z.object({ cards: z.array(ZCard) }),
  detail: z.object({
    itemId: zId('itm'),
    allergens: z.array(z.string()),
    source: z.literal('declared'),
    note: z.string(),
  }),
  done: z.object({ turnId: zId('trn'), finishReason: z.enum(['stop', 'length']) }),
  /** A turn that started and could not finish; the stream ends after it. */
  error: z.object({
    code: z.string().meta({
      description:
        "Why the turn stopped: `provider_not_configured` (no model for live keys), `concierge_allowance_exhausted` (the month's messages are used), `upstream_error` (the model stopped answering), `service_unavailable` (a service the turn needs failed for a moment: retry shortly), `internal_error`. More may come: show `message` for any other.",
    }),
    message: z.string(),
  }),
} as const;
export type TConciergeEventName = keyof typeof ConciergeEventSchemas;
export type TConciergeEvent = {
  [K in TConciergeEventName]: { event: K; data: z.infer<(typeof ConciergeEventSchemas)[K]> };
}[TConciergeEventName];

export const ZConciergeBootstrap = z.union([
  z.object({
    enabled: z.literal(true),
    displayName: z.string(),
    welcomeMessage: z.string(),
    disclosure: z.string(),
    currency: z.string(),
    publicMenuUrl: z.string().nullable(),
    testMode: z.boolean(),
  }),
  z.object({ enabled: z.literal(false) }),
]);
export type TConciergeBootstrap = z.infer<typeof ZConciergeBootstrap>;
