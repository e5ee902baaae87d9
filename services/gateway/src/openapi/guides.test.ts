import { readFileSync } from 'node:fs';
import { EVENT_TYPES, ZWebhookEvent } from '@partner/contracts';
import { describe, expect, it } from 'vitest';

// The guides are part of the contract an integrator reads: their example payloads must be what we send.

const webhooksGuide = readFileSync(new URL('../../../../docs/guides/webhooks.md', import.meta.url), 'utf8');
const section = webhooksGuide.slice(webhooksGuide.indexOf('### Example payloads'), webhooksGuide.indexOf('## Delivery'));
const examples = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as unknown);

describe('the webhooks guide', () => {
  it('shows a valid example body for every event type, ping included', () => {
    const types = examples.map((example) => ZWebhookEvent.parse(example).type);
    expect([...types].sort()).toEqual([...EVENT_TYPES, 'ping'].sort());
  });
});
