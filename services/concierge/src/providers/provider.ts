import type { MenuEntry } from '../grounding/menu-index.js';

export interface ChatTurnInput {
  /** Our rules and the restaurant's grounding data; never anything the caller wrote. */
  system: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
  /** The dishes retrieved for this turn (the sandbox answers from them). */
  retrieved: MenuEntry[];
  /** Dishes asked about that contain an allergen the guest avoids: never offered. */
  avoided: MenuEntry[];
  signal: AbortSignal;
  /** Told the tokens the model used, when it reports them (once, at the end). */
  onUsage?: (usage: { prompt: number; completion: number }) => void;
  /** Told that the answer stopped at the output token limit (`CONCIERGE_MAX_OUTPUT_TOKENS`), not where the model meant to. */
  onCutAtLimit?: () => void;
}

/** A model behind one interface: text arrives piece by piece, as the model produces it. */
export interface ChatProvider {
  stream(input: ChatTurnInput): AsyncIterable<string>;
}
