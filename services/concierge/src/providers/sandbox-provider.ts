import type { ChatProvider, ChatTurnInput } from './provider.js';

/**
 * Test keys talk to this instead of a model (spec 4.8 behaviour 6): the same request always gives
 * the same stream, built only from the dishes retrieved for the turn, and it costs nothing.
 */
export class SandboxChatProvider implements ChatProvider {
  async *stream(input: ChatTurnInput): AsyncIterable<string> {
    const dishes = input.retrieved.slice(0, 3);
    const reply = [
      ...input.avoided.map(
        (dish) =>
          `I can't suggest ${dish.name}: ${dish.allergens.length ? `it declares ${dish.allergens.join(', ')}` : 'its ingredients suggest an allergen you avoid'}. Please confirm with the staff.`,
      ),
      dishes.length
        ? `From the menu, you might like ${dishes.map((dish) => `${dish.name}[[${dish.id}]]`).join(', ')}.`
        : input.avoided.length
          ? ''
          : "I couldn't find a dish on this menu that matches. Could you tell me more about what you'd like?",
      '(Sandbox reply: no model was used.)',
    ]
      .filter(Boolean)
      .join(' ');
    for (const word of reply.split(/(?<= )/)) {
      if (input.signal.aborted) return;
      yield word;
    }
  }
}
