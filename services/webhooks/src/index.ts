export { createApp } from './app.js';
export { loadWebhooksConfig, type WebhooksConfig } from './config.js';
export { Dispatcher } from './dispatcher/dispatcher.js';
export { WebhookSender } from './dispatcher/sender.js';
export { startWebhooks } from './server.js';
export { OwnerMailer } from './dispatcher/owner-mailer.js';
