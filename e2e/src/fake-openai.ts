import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking OpenAI's streaming chat-completions wire protocol (the hosted model cannot
 * run here), driven by the real openai client in the concierge.
 */
export async function startFakeOpenAI(script: { tokens: string[]; delayMs?: number; failAfter?: number; holdBeforeToken?: number }) {
  const requests: { body: any; closedEarly: boolean }[] = [];
  // A gate the test opens: responses wait before token `holdBeforeToken` until then.
  let gate: Promise<void> = Promise.resolve();
  let release: () => void = () => {};
  const hold = () => {
    gate = new Promise<void>((resolve) => (release = resolve));
  };
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const record = { body: JSON.parse(raw), closedEarly: false };
    requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.closedEarly = true;
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: record.body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const [index, token] of script.tokens.entries()) {
      if (res.destroyed) return;
      if (script.failAfter === index) return res.destroy();
      if (script.holdBeforeToken === index) await gate;
      res.write(chunk({ content: token }));
      await new Promise((resolve) => setTimeout(resolve, script.delayMs ?? 0));
    }
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    hold,
    release: () => release(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
