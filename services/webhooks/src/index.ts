export { createApp } from './app.js';
export { startWebhooks } from './server.js';
