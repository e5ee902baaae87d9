import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelScript {
  /** The content chunks streamed back, in order. */
  tokens: string[];
  /** Pause between chunks. */
  delayMs?: number;
  /** Drop the connection instead of sending chunk `failAfter`. */
  failAfter?: number;
  /** End the body cleanly instead of sending chunk `cutAfter`: no finish reason, no [DONE] (a proxy cutting it). */
  cutAfter?: number;
  /** Wait before chunk `holdBeforeToken` until the test calls `release()` (after `hold()`). */
  holdBeforeToken?: number;
  /** Wait the same way after the finish reason, before the usage chunk and [DONE]. */
  holdBeforeUsage?: boolean;
  /** The finish reason sent after the last chunk ('stop' unless told; 'length' as at max_tokens). */
  finishReason?: 'stop' | 'length';
}

export interface ModelRequest {
  body: any;
  /** The caller went away before the answer was complete. */
  closedEarly: boolean;
}

export interface FakeOpenAI {
  baseURL: string;
  /** Every chat-completion request received since the last `reset`. */
  requests: ModelRequest[];
  /** What the next requests are answered with. */
  answer(script: ModelScript): void;
  /** Back to the first script, and no requests. */
  reset(): void;
  /** Closes the gate: answers wait before chunk `holdBeforeToken`... */
  hold(): void;
  /** ...until this opens it. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking OpenAI's streaming chat-completions wire protocol (the hosted model
 * cannot run in tests), so live keys go through the real openai client of the concierge. The script
 * is read at each request: a test may change it (or the object it passed) between turns.
 */
export async function startFakeOpenAI(initial: ModelScript = { tokens: ['Hello', ' there.'] }): Promise<FakeOpenAI> {
  let script = initial;
  const requests: ModelRequest[] = [];
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  const answerCompletion = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const record: ModelRequest = { body: JSON.parse(raw), closedEarly: false };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    const { tokens, delayMs = 0, failAfter, cutAfter, holdBeforeToken, holdBeforeUsage, finishReason = 'stop' } = script;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: record.body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const [index, token] of tokens.entries()) {
      if (res.destroyed) return;
      if (failAfter === index) return res.destroy();
      if (cutAfter === index) return res.end();
      if (holdBeforeToken === index) await gate;
      res.write(chunk({ content: token }));
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    res.write(chunk({}, finishReason));
    if (holdBeforeUsage) await gate;
    if (record.body.stream_options?.include_usage) {
      // As OpenAI does: a last chunk with no choices and the usage (prompt tokens roughly a word each).
      const prompt = JSON.stringify(record.body.messages).split(/\s+/).length;
      const usage = { prompt_tokens: prompt, completion_tokens: tokens.length, total_tokens: prompt + tokens.length };
      res.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: record.body.model, choices: [], usage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  };
  const server = createServer((req, res) => {
    answerCompletion(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    answer: (next) => {
      script = next;
    },
    reset: () => {
      script = initial;
      requests.length = 0;
    },
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => open(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
