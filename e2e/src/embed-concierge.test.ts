import { afterAll, describe, expect, it } from 'vitest';
import { saveScreenshot, useEmbedHarness } from './browser.js';
import { startFakeOpenAI } from '@partner/testing';
import { restaurantWithKey } from './stack.js';

// The concierge widget in a real browser (headless Chromium), on a third-party page that loads
// concierge.v1.js from the gateway. Live keys get a model (a local server speaking OpenAI's protocol),
// so that a live turn goes as far as the allowance.
let model: Awaited<ReturnType<typeof startFakeOpenAI>> | undefined;
const h = useEmbedHarness({
  script: 'concierge.v1.js',
  stack: async () => {
    model = await startFakeOpenAI({ tokens: ['Hello', '!'] });
    return { conciergeEnv: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: model.baseURL } };
  },
});
afterAll(() => model?.close());
const page = (body: string) => h.page(`<h1>Bistro</h1>${body}`);
const open = (path: string, html: string) => h.open(path, html);

describe('<service-concierge>', () => {
  it('demo renders the bundled thread with the disclosure, and makes no API call', async () => {
    const { tab, requests } = await open('/demo', page('<service-concierge demo></service-concierge>'));
    await expect.poll(() => tab.locator('service-concierge .message.assistant').count()).toBeGreaterThan(1);
    expect(await tab.locator('service-concierge .disclosure').textContent()).toContain('AI assistant');
    expect(await tab.locator('service-concierge .card').count()).toBe(1);
    expect(requests.filter((url) => url.includes('/v1/'))).toEqual([]);
    await saveScreenshot(tab, 'concierge-demo.png');
    await tab.close();
  });

  it('demo="launcher" renders the closed launcher', async () => {
    const { tab } = await open('/launcher', page('<service-concierge demo="launcher"></service-concierge>'));
    await expect.poll(() => tab.locator('service-concierge .launcher').count()).toBe(1);
    expect(await tab.locator('service-concierge .panel').count()).toBe(0);
    await saveScreenshot(tab, 'concierge-launcher.png');
    await tab.close();
  });

  it('renders nothing without a restaurant id or key', async () => {
    const { tab, requests } = await open('/missing', page('<service-concierge restaurant-id="rst_x"></service-concierge>'));
    await tab.waitForTimeout(300);
    expect(await tab.locator('service-concierge *').count()).toBe(0);
    expect(requests.filter((url) => url.includes('/v1/'))).toEqual([]);
    await tab.close();
  });

  it('streams a sandbox turn, renders cards, keeps script-like text as text, and pins the disclosure', async () => {
    const { restaurant } = await restaurantWithKey(h.stack);
    await h.stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    await h.stack.console.createItem(restaurant.id, { name: '<img src=x onerror="window.__pwned=1"> Tomato soup', priceCents: 700 });
    const key = await h.publishableKey(restaurant.id, 'test');
    const { tab } = await open(
      '/live',
      page(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="${key}"></service-concierge>`),
    );
    await tab.locator('service-concierge .launcher').click();
    expect(await tab.locator('service-concierge .badge').textContent()).toBe('TEST MODE');
    expect(await tab.locator('service-concierge .disclosure').textContent()).toContain('AI assistant');
    await tab.locator('service-concierge input').fill('Do you have soup?');
    await tab.locator('service-concierge form button').click();
    await expect.poll(() => tab.locator('service-concierge .card').count(), { timeout: 5000 }).toBe(1);
    const reply = await tab.locator('service-concierge .message.assistant').last().textContent();
    expect(reply).toContain('<img src=x onerror="window.__pwned=1"> Tomato soup');
    expect(await tab.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await tab.locator('service-concierge .message img').count()).toBe(0);
    await saveScreenshot(tab, 'concierge-sandbox-turn.png');

    // Allergen questions show the declared allergens and the deferral to staff.
    await tab.locator('service-concierge input').fill('Is the soup ok for a milk allergy?');
    await tab.locator('service-concierge form button').click();
    await expect.poll(() => tab.locator('service-concierge .allergens').count(), { timeout: 5000 }).toBe(1);
    expect(await tab.locator('service-concierge .allergens').textContent()).toContain('confirm with the staff');

    // The conversation survives a reload within the tab.
    await tab.reload();
    await tab.locator('service-concierge .launcher').click();
    expect(await tab.locator('service-concierge .message.user').first().textContent()).toBe('Do you have soup?');
    await tab.close();
  });

  it('shows a short message when the allowance is used up', async () => {
    const { restaurant } = await restaurantWithKey(h.stack);
    await h.stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true, conciergeAllowance: 0 });
    const key = await h.publishableKey(restaurant.id, 'live');
    const { tab } = await open(
      '/allowance',
      page(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="${key}"></service-concierge>`),
    );
    await tab.locator('service-concierge .launcher').click();
    await tab.locator('service-concierge input').fill('hello');
    await tab.locator('service-concierge form button').click();
    await expect.poll(() => tab.locator('service-concierge .message.notice').count(), { timeout: 5000 }).toBe(1);
    expect(await tab.locator('service-concierge .message.notice').textContent()).toContain('this month');
    expect(await tab.locator('service-concierge .disclosure').count()).toBe(1);
    await tab.close();
  });

  it('stops the answer when the panel closes (the model with it), and takes the next question', async () => {
    const { restaurant } = await restaurantWithKey(h.stack);
    await h.stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    const key = await h.publishableKey(restaurant.id, 'live');
    // The concierge lets a sentence out once it is whole: the first one arrives, the second waits.
    model!.answer({ tokens: ['Our soup is hot. ', 'It is made with cream.'], holdBeforeToken: 1 });
    model!.hold();
    try {
      const { tab } = await open(
        '/stop',
        page(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="${key}"></service-concierge>`),
      );
      const lastAnswer = () => tab.locator('service-concierge .message.assistant, service-concierge .message.notice').last().textContent();
      await tab.locator('service-concierge .launcher').click();
      await tab.locator('service-concierge input').fill('What is in the soup?');
      await tab.locator('service-concierge form button').click();
      await expect.poll(lastAnswer, { timeout: 5000 }).toContain('Our soup is hot.');
      // Announced once whole, not word by word.
      expect(await tab.locator('service-concierge .messages').getAttribute('aria-busy')).toBe('true');
      await tab.locator('service-concierge header button').click();
      await expect.poll(() => model!.requests.at(-1)?.closedEarly, { timeout: 5000 }).toBe(true);
      model!.release();
      model!.reset();

      await tab.locator('service-concierge .launcher').click();
      expect(await lastAnswer()).toContain('Stopped before the answer was complete');
      await tab.locator('service-concierge input').fill('Any bread?');
      await tab.locator('service-concierge form button').click();
      await expect.poll(lastAnswer, { timeout: 5000 }).toBe('Hello!');
      expect(await tab.locator('service-concierge .messages').getAttribute('aria-busy')).toBe('false');
      await tab.close();
    } finally {
      model!.release();
      model!.reset();
    }
  });

  it('sends a long past answer back cut to the longest message the chat takes', async () => {
    const { restaurant } = await restaurantWithKey(h.stack);
    await h.stack.console.updateRestaurant(restaurant.id, { conciergeAddon: true, conciergeEnabled: true });
    const key = await h.publishableKey(restaurant.id, 'live');
    const { tab } = await open(
      '/long',
      page(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="${key}"></service-concierge>`),
    );
    // A thread whose last answer ran to the output limit, kept in the tab.
    await tab.evaluate(
      ([restaurantId, text]) =>
        sessionStorage.setItem(
          `service-concierge:${restaurantId}`,
          JSON.stringify([
            { role: 'user', text: 'Tell me about every dish.' },
            { role: 'assistant', text },
          ]),
        ),
      [restaurant.id, 'x'.repeat(2500)],
    );
    await tab.reload();
    await tab.locator('service-concierge .launcher').click();
    await tab.locator('service-concierge input').fill('And the desserts?');
    await tab.locator('service-concierge form button').click();
    await expect.poll(() => tab.locator('service-concierge .message.assistant').last().textContent(), { timeout: 5000 }).toBe('Hello!');
    const sent = model!.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.find((message) => message.role === 'assistant')?.content).toBe('x'.repeat(2000));
    await tab.close();
  });

  it('renders no launcher when the assistant is not servable', async () => {
    const { restaurant } = await restaurantWithKey(h.stack);
    const key = await h.publishableKey(restaurant.id, 'test');
    const { tab, requests } = await open(
      '/off',
      page(`<service-concierge restaurant-id="${restaurant.id}" publishable-key="${key}"></service-concierge>`),
    );
    await expect.poll(() => requests.some((url) => url.includes('/concierge'))).toBe(true);
    await tab.waitForTimeout(300);
    expect(await tab.locator('service-concierge .launcher').count()).toBe(0);
    await tab.close();
  });
});
