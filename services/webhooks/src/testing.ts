// `@partner/webhooks/testing`: for tests and benchmarks outside this service (e2e, bench) that arrange
// an endpoint directly, e.g. with a loopback URL the API would refuse. Not part of the service's API.
export { sealEndpointSecret } from './endpoints/endpoint-secrets.js';
export { insertWebhookEndpoint } from './webhooks.repository.js';
export { seedDeliveredHistory, type DeliveredHistory } from './testing/history.js';
