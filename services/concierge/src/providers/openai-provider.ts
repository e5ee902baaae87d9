import OpenAI from 'openai';
import { openClientSpan } from '@partner/tracing';
import type { ChatProvider, ChatTurnInput } from './provider.js';

/** The model sent nothing for the idle deadline: given up, so the turn ends with `upstream_error`. */
export class ModelIdleError extends Error {
  override name = 'ModelIdleError';
}

/**
 * OpenAI, or any self-hosted server speaking its chat-completions protocol (base URL, key, model).
 * The client's own timeout ends at the answer's headers; a model that then goes quiet (or sends only
 * keep-alive comments) is given up after `idleTimeoutMs` without a word, so no turn hangs.
 */
export class OpenAIChatProvider implements ChatProvider {
  private readonly client: OpenAI;

  constructor(
    private readonly options: { apiKey: string; baseURL?: string; model: string; maxOutputTokens: number; idleTimeoutMs: number },
  ) {
    // No timeout of the client's own: the idle deadline below covers the wait for the headers too.
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
  }

  async *stream(input: ChatTurnInput): AsyncIterable<string> {
    // The model call's span (GenAI semantic conventions), its HTTP request a child of it.
    const span = openClientSpan(`chat ${this.options.model}`, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': this.options.model,
    });
    const idle = new AbortController();
    // Restarted (refresh) at each word the model sends, not made anew.
    const idleTimer = setTimeout(
      () => idle.abort(new ModelIdleError(`the model sent nothing for ${this.options.idleTimeoutMs} ms`)),
      this.options.idleTimeoutMs,
    );
    let finished = false;
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
          { signal: AbortSignal.any([input.signal, idle.signal]) },
        ),
      );
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        // The answer is whole; the usage chunk that may follow is waited for until the idle deadline only.
        const reason = chunk.choices[0]?.finish_reason;
        if (reason) finished = true;
        if (reason === 'length') input.onCutAtLimit?.();
        if (text) {
          idleTimer.refresh();
          yield text;
        }
        if (chunk.usage) {
          span.attribute('gen_ai.usage.input_tokens', chunk.usage.prompt_tokens);
          span.attribute('gen_ai.usage.output_tokens', chunk.usage.completion_tokens);
          input.onUsage?.({ prompt: chunk.usage.prompt_tokens, completion: chunk.usage.completion_tokens });
        }
      }
      // The client ends the iteration quietly when aborted, and when a body ends early: an answer with
      // no finish reason was cut short, a failure rather than the whole answer.
      if (finished) return;
      if (idle.signal.aborted) throw idle.signal.reason;
      if (!input.signal.aborted) throw new Error('the model stream ended before the answer did');
    } catch (err) {
      if (finished) return;
      const failure: unknown = idle.signal.aborted ? idle.signal.reason : err;
      span.fail(failure instanceof Error ? failure.name : 'error');
      throw failure;
    } finally {
      clearTimeout(idleTimer);
      span.end();
    }
  }
}
