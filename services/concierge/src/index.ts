export { createApp } from './app.js';
export { startConcierge } from './server.js';
