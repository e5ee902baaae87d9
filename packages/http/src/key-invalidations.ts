import { InvalidationChannel, type InvalidationMessage } from './invalidated-cache.js';

/**
 * Console tells every gateway replica over Redis pub/sub when a key stops being what the caches
 * hold (revoked, owner suspended or lifted). Replicas drop matching entries at once; a replica that
 * lost its subscription drops everything on reconnect, so a missed message cannot keep a key alive.
 */
export const keyInvalidations = new InvalidationChannel('keys:invalidate', ['keyId', 'ownerId']);
export type KeyInvalidation = InvalidationMessage<'keyId' | 'ownerId'>;
