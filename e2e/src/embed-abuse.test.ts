import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '@partner/testing';
import { streamChat, type StreamedResponse } from './sse-client.js';
import { startStack, type Stack } from './stack.js';

// Issue 14's "done when": a script holding only what the public menu page prints (the restaurant's
// live publishable key) and a forged Origin loops chat turns from one address. It must be refused
// with 429 before it spends more than one visitor's documented share of the month's allowance
// (docs/configuration.md: CONCIERGE_VISITOR_SHARE_PERCENT 2, CONCIERGE_VISITOR_MIN_MESSAGES 10).
// Everything else is the stock configuration: the live key the page prints, a model behind it.
const SHARE_PERCENT = 2;
const SHARE_MINIMUM = 10;

let stack: Stack;
let model: Awaited<ReturnType<typeof startFakeOpenAI>>;
// The gateway's clock, so the test can step past its per-minute windows without sleeping.
let clockOffsetMs = 0;
beforeAll(async () => {
  model = await startFakeOpenAI({ tokens: ['Try', ' the tiramisu.'] });
  stack = await startStack({
    realPublicUrl: true,
    gatewayClock: () => new Date(Date.now() + clockOffsetMs),
    conciergeEnv: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: model.baseURL },
  });
});
afterAll(async () => {
  await stack?.stop();
  await model?.close();
});

async function publicMenuRestaurant() {
  const restaurant = await stack.console.createRestaurant({ name: 'Trattoria Aperta', slug: `aperta-${Date.now()}`, currency: 'EUR' });
  await stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
  await stack.console.createItem(restaurant.id, { name: 'Tiramisu', priceCents: 900 });
  return restaurant;
}

describe("a script with the menu page's key and a forged Origin", () => {
  it("is refused with 429 rate_limited before it spends more than one visitor's share of the allowance", async () => {
    const restaurant = await publicMenuRestaurant();
    const menuUrl = `${stack.gatewayUrl}/menu/${restaurant.id}`;
    const page = await request(stack.gatewayUrl).get(`/menu/${restaurant.id}`);
    expect(page.status).toBe(200);
    const key = /publishable-key="(svc_pk_live_[A-Za-z0-9]+)"/.exec(page.text)?.[1];
    expect(key).toBeDefined();

    // What a browser on the page would send; curl sends it just as well.
    const headers = { Authorization: `Bearer ${key}`, Origin: new URL(menuUrl).origin };
    const turn = () =>
      streamChat(`${stack.gatewayUrl}/v1/partner/embed/restaurants/${restaurant.id}/concierge/chat`, headers, { message: 'dessert?' });
    const loopUntilRefused = async (max: number) => {
      let answered = 0;
      for (let i = 0; i < max; i++) {
        const res = await turn();
        if (res.status === 429) return { answered, refused: res };
        expect(res.status).toBe(200);
        expect(res.events.at(-1)?.event).toBe('done');
        answered++;
      }
      throw new Error(`no 429 after ${max} turns`);
    };
    const expectRateLimited = (res: StreamedResponse) => {
      expect(res.json.error.code).toBe('rate_limited');
      expect(res.json.error.requestId).toBe(res.headers.get('x-request-id'));
      expect(res.events).toEqual([]);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter > 0).toBe(true);
      return retryAfter;
    };

    const before = await stack.console.usage(restaurant.id);
    const share = Math.max(SHARE_MINIMUM, Math.ceil((before.conciergeMessages.allowance * SHARE_PERCENT) / 100));
    const first = await loopUntilRefused(200);
    expectRateLimited(first.refused);
    expect(first.answered).toBeLessThanOrEqual(share);

    // A minute later the per-visitor minute has passed, but the share of the month has not: the
    // refusal now names the end of the billing period.
    clockOffsetMs += 60_000;
    const second = await loopUntilRefused(200);
    const retryAfter = expectRateLimited(second.refused);
    expect(first.answered + second.answered).toBe(share);
    const usage = await stack.console.usage(restaurant.id);
    const untilPeriodEnd = (Date.parse(usage.periodEnd) - Date.now()) / 1000;
    expect(retryAfter).toBeGreaterThan(untilPeriodEnd - 5);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilPeriodEnd) + 1);

    // What the script cost the restaurant: at most the share, counted by the allowance itself.
    expect(usage.conciergeMessages.used).toBe(first.answered + second.answered);
    expect(usage.conciergeMessages.used).toBeLessThanOrEqual(share);
    expect(model.requests).toHaveLength(usage.conciergeMessages.used);
  });
});
