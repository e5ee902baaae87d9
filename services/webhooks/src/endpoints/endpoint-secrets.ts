import type { Db } from '@partner/db';
import type { Logger } from '@partner/http';
import { SealError, SealingKeys } from '@partner/signing';
import { findEndpointsToReseal, replaceSealedSecrets } from '../webhooks.repository.js';

/** A sealed secret opens only as the secret of the endpoint it was sealed for. */
const contextOf = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export const sealEndpointSecret = (keys: SealingKeys, endpointId: string, secret: string): string =>
  keys.seal(secret, contextOf(endpointId));

export const openEndpointSecret = (keys: SealingKeys, endpointId: string, sealed: string): string =>
  keys.open(sealed, contextOf(endpointId));

const BATCH = 500;

/**
 * Seals again, under the key that seals now, every endpoint secret sealed under an older key (or
 * stored in clear before secrets were sealed), so that the older key can be dropped from the ring.
 * Safe to run on every replica at once: a row is only written if it is still as it was read.
 */
export async function resealEndpointSecrets(db: Db, keys: SealingKeys, logger: Logger): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  const reseal = (endpointId: string, value: string) =>
    sealEndpointSecret(keys, endpointId, SealingKeys.isSealed(value) ? openEndpointSecret(keys, endpointId, value) : value);
  for (let after = ''; ;) {
    const rows = await findEndpointsToReseal(db, keys.currentPrefix, after, BATCH);
    for (const row of rows) {
      try {
        const next = { secret: reseal(row.id, row.secret), previous_secret: row.previous_secret && reseal(row.id, row.previous_secret) };
        if (await replaceSealedSecrets(db, row, next)) resealed++;
      } catch (err: unknown) {
        if (!(err instanceof SealError)) throw err;
        unreadable++;
        logger.error({ endpointId: row.id, reason: err.message }, 'webhook secret cannot be opened with the configured keys');
      }
    }
    if (rows.length < BATCH) break;
    after = rows.at(-1)!.id;
  }
  if (resealed || unreadable) logger.info({ resealed, unreadable }, 'webhook secrets sealed under the current key');
  return { resealed, unreadable };
}
