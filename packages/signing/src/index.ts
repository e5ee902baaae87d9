export * from './cursor.js';
export * from './hmac.js';
export * from './view-token.js';
export * from './sealing.js';
export * from './webhook-signature.js';
