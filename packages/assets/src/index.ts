export * from './asset-signing.js';
export * from './storage.js';
