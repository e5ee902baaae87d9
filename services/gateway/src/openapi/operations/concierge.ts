import { ConciergeEventSchemas, type ErrorCode, ZChatRequest, ZConciergeBootstrap, zData } from '@partner/contracts';
import { pathId, type Operation, type RouteKey } from './operation.js';

const restaurantId = pathId('rst', 'The restaurant.');
const sseEventNames = Object.keys(ConciergeEventSchemas).join(', ');

/**
 * Refusals before the stream starts. A turn that started and cannot finish (no model, the allowance
 * used up, the model failing) ends with an `error` event instead, inside a 200.
 */
const CHAT_ERRORS: ErrorCode[] = ['not_found', 'concierge_unavailable'];

export const CONCIERGE_OPERATIONS: Record<RouteKey, Operation> = {
  'POST /v1/partner/restaurants/:id/concierge/chat': {
    operationId: 'chatWithConcierge',
    tag: 'Concierge',
    summary: 'Ask the concierge',
    description: `One turn, answered as Server-Sent Events: ${sseEventNames}. Each message's \`event:\` names it and its \`data:\` is JSON. The stream ends after \`done\` or \`error\`.`,
    path: restaurantId,
    body: ZChatRequest,
    success: { kind: 'sse', description: 'The turn as a stream of events.' },
    errors: CHAT_ERRORS,
  },
  'GET /v1/partner/embed/restaurants/:id/concierge': {
    operationId: 'getConciergeBootstrap',
    tag: 'Embeds',
    summary: "The concierge widget's settings",
    description: 'Whether the assistant is on for this restaurant, and what the widget shows before the first question.',
    path: restaurantId,
    success: { kind: 'json', status: 200, schema: zData(ZConciergeBootstrap), description: 'The settings.' },
    errors: ['not_found'],
  },
  'POST /v1/partner/embed/restaurants/:id/concierge/chat': {
    operationId: 'chatWithConciergeEmbed',
    tag: 'Embeds',
    summary: "The concierge widget's chat",
    description: `The widget's turn, as \`chatWithConcierge\` but with a publishable key; each visitor has a share of the restaurant's allowance. Events: ${sseEventNames}.`,
    path: restaurantId,
    body: ZChatRequest,
    success: { kind: 'sse', description: 'The turn as a stream of events.' },
    errors: CHAT_ERRORS,
  },
};
