export { createApp } from './app.js';
export { loadWebhooksConfig, type WebhooksConfig } from './config.js';
export { Dispatcher } from './dispatcher/dispatcher.js';
export { WebhookSender } from './dispatcher/sender.js';
export { startWebhooks } from './server.js';
export { OwnerMailer } from './dispatcher/owner-mailer.js';
/** For tests that arrange an endpoint directly (e.g. a loopback URL the API would refuse). */
export { insertWebhookEndpoint } from './webhooks.repository.js';
export { sealEndpointSecret } from './endpoints/endpoint-secrets.js';
