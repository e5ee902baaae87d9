import OpenAI from 'openai';
import { openClientSpan } from '@partner/tracing';
import type { ChatProvider, ChatTurnInput } from './provider.js';

/** OpenAI, or any self-hosted server speaking its chat-completions protocol (base URL, key, model). */
export class OpenAIChatProvider implements ChatProvider {
  private readonly client: OpenAI;

  constructor(private readonly options: { apiKey: string; baseURL?: string; model: string; maxOutputTokens: number }) {
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: 60_000 });
  }

  async *stream(input: ChatTurnInput): AsyncIterable<string> {
    // The model call's span (GenAI semantic conventions), its HTTP request a child of it.
    const span = openClientSpan(`chat ${this.options.model}`, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': this.options.model,
    });
    try {
      const stream = await span.within(() =>
        this.client.chat.completions.create(
          {
            model: this.options.model,
            stream: true,
            temperature: 0.2,
            max_tokens: this.options.maxOutputTokens,
            // One last chunk with the turn's token counts (the metrics); servers without it send none.
            stream_options: { include_usage: true },
            messages: [{ role: 'system', content: input.system }, ...input.messages],
          },
          { signal: input.signal },
        ),
      );
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield text;
        if (chunk.usage) {
          span.attribute('gen_ai.usage.input_tokens', chunk.usage.prompt_tokens);
          span.attribute('gen_ai.usage.output_tokens', chunk.usage.completion_tokens);
          input.onUsage?.({ prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens });
        }
      }
    } catch (err) {
      span.fail(err instanceof Error ? err.name : 'error');
      throw err;
    } finally {
      span.end();
    }
  }
}
