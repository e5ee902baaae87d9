import { ConciergeEventSchemas, ZChatRequest, ZConciergeBootstrap, zData } from '@partner/contracts';
import { pathId, type Operation, type RouteKey } from './operation.js';

const restaurantId = pathId('rst', 'The restaurant.');
const sseEventNames = Object.keys(ConciergeEventSchemas).join(', ');

export const CONCIERGE_OPERATIONS: Record<RouteKey, Operation> = {
  'POST /v1/partner/restaurants/:id/concierge/chat': {
    operationId: 'chatWithConcierge',
    tag: 'Concierge',
    summary: 'Ask the concierge',
    description: `One turn, answered as Server-Sent Events: ${sseEventNames}. Each message's \`event:\` names it and its \`data:\` is JSON. The stream ends after \`done\` or \`error\`.`,
    path: restaurantId,
    body: ZChatRequest,
    success: { kind: 'sse', description: 'The turn as a stream of events.' },
    errors: [
      'invalid_request',
      'not_found',
      'concierge_unavailable',
      'concierge_allowance_exhausted',
      'provider_not_configured',
      'idempotency_key_conflict',
      'idempotency_key_in_use',
    ],
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
    errors: [
      'invalid_request',
      'not_found',
      'concierge_unavailable',
      'concierge_allowance_exhausted',
      'provider_not_configured',
      'idempotency_key_conflict',
      'idempotency_key_in_use',
    ],
  },
};
