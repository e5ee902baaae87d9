export * from './app-error.js';
export * from './config.js';
export * from './http.js';
export * from './ids.js';
export * from './invalidated-cache.js';
export * from './lifecycle.js';
export * from './logger.js';
export * from './redis.js';
