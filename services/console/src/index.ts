export { createApp } from './app.js';
export { loadConsoleConfig, type ConsoleConfig } from './config.js';
export { startConsole } from './server.js';
