export * from './api-keys.js';
export * from './internal-jwt.js';
export * from './origins.js';
export * from './principal.js';
export * from './scopes.js';
