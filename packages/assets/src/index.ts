export * from './asset-signing.js';
export * from './storage.js';
export * from './storage-from-config.js';
