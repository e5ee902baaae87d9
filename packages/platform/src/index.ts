export * from './cursor.js';
export * from './entitlements.js';
export * from './pagination.js';
export * from './service-app.js';
export * from './service-config.js';
export * from './service-deps.js';
export * from './start-service.js';
