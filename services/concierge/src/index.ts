export { createApp } from './app.js';
export { loadConciergeConfig, type ConciergeConfig } from './config.js';
export { startConcierge } from './server.js';
