import { createClient } from 'redis';

const createDefaultClient = (url: string) => createClient({ url });
export type RedisClient = ReturnType<typeof createDefaultClient>;

/** A connected client. Errors go to the caller's handler rather than crashing the process. */
export async function connectRedis(url: string, onError: (err: Error) => void): Promise<RedisClient> {
  const client = createDefaultClient(url);
  client.on('error', onError);
  await client.connect();
  return client;
}
