import type { Api } from './reads.js';

/**
 * Milliseconds from sending a concierge turn through the gateway to the first `delta` event of its
 * stream (the first token the diner sees); the stream is read to its end.
 */
export async function timeToFirstDelta(api: Api, message: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${api.base}/v1/partner/restaurants/${api.restaurantId}/concierge/chat`, {
    method: 'POST',
    headers: { ...api.auth, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  if (!res.ok) throw new Error(`concierge turn: ${res.status} ${await res.text()}`);
  let firstDelta: number | null = null;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (firstDelta === null && text.includes('event: delta')) firstDelta = performance.now() - started;
  }
  if (firstDelta === null) throw new Error(`concierge turn ended without a delta:\n${text}`);
  return firstDelta;
}
