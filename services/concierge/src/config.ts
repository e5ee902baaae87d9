import { z } from 'zod';
import { parseEnv } from '@partner/kit';
import { loadServiceConfig } from '@partner/platform';

const ZConciergeEnv = z.object({
  /** The model provider for live keys; any server speaking OpenAI's chat-completions protocol. */
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().optional(),
  CONCIERGE_MODEL: z.string().min(1).default('gpt-4o-mini'),
});

export function loadConciergeConfig(env: Record<string, string | undefined>) {
  const own = parseEnv(ZConciergeEnv, env);
  return {
    ...loadServiceConfig(env, 'CONCIERGE_PORT', 8083),
    openai: own.OPENAI_API_KEY ? { apiKey: own.OPENAI_API_KEY, baseURL: own.OPENAI_BASE_URL, model: own.CONCIERGE_MODEL } : null,
  };
}
export type ConciergeConfig = ReturnType<typeof loadConciergeConfig>;
