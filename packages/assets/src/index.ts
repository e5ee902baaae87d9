export * from './asset-signing.js';
export * from './s3-storage.js';
export * from './storage.js';
export * from './storage-from-config.js';
