import { InvalidationChannel, type InvalidationMessage } from './invalidated-cache.js';

/**
 * Console tells every catalog replica over Redis pub/sub, once a change has committed, that cached
 * item lookups may be stale: an item changed (edited, deleted, its model), or a restaurant did
 * (subscription, add-on, quota, currency, an integrator's grant). Replicas drop what matches at once.
 */
export const accessInvalidations = new InvalidationChannel('access:invalidate', ['itemId', 'restaurantId']);
export type AccessInvalidation = InvalidationMessage<'itemId' | 'restaurantId'>;

/**
 * Console tells every catalog replica, once a change has committed, that a restaurant's public menu
 * page may read differently: a dish, a section or the restaurant itself changed. Replicas drop the
 * rendered page at once.
 */
export const menuInvalidations = new InvalidationChannel('menu:invalidate', ['restaurantId']);
export type MenuInvalidation = InvalidationMessage<'restaurantId'>;
