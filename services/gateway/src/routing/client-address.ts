import type { IncomingMessage } from 'node:http';

/**
 * The client's address with `hops` proxies in front of the gateway, as express's numeric `trust
 * proxy` reads it: the connection's address, then X-Forwarded-For from its end, each trusted proxy
 * vouching for the address before it; the first address no trusted proxy added is the client's. With
 * 0 hops the header is ignored, since anyone can send it.
 */
export function clientAddress(req: IncomingMessage, hops: number): string | undefined {
  const connection = req.socket.remoteAddress;
  const forwarded = req.headers['x-forwarded-for'];
  if (hops === 0 || !forwarded) return connection;
  const chain = String(forwarded).split(',');
  // chain.at(-1) is what the nearest proxy saw, chain.at(-hops) what the farthest trusted one saw.
  const index = Math.max(0, chain.length - hops);
  return chain[index]!.trim();
}
