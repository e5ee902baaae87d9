export { createApp } from './app.js';
export { loadCatalogConfig, type CatalogConfig } from './config.js';
export { startCatalog } from './server.js';
