import type { ChatProvider, ChatTurnInput } from './provider.js';

/**
 * Test keys talk to this instead of a model (spec 4.8 behaviour 6): the same request always gives
 * the same stream, built only from the dishes retrieved for the turn, and it costs nothing.
 */
export class SandboxChatProvider implements ChatProvider {
  async *stream(input: ChatTurnInput): AsyncIterable<string> {
    const dishes = input.retrieved.slice(0, 3);
    const reply = dishes.length
      ? `From the menu, you might like ${dishes.map((dish) => `${dish.name}[[${dish.id}]]`).join(', ')}. (Sandbox reply: no model was used.)`
      : "I couldn't find a dish on this menu that matches. Could you tell me more about what you'd like? (Sandbox reply: no model was used.)";
    for (const word of reply.split(/(?<= )/)) {
      if (input.signal.aborted) return;
      yield word;
    }
  }
}
