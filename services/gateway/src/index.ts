export { createApp } from './app.js';
export { loadGatewayConfig, type GatewayConfig } from './config.js';
export { startGateway } from './server.js';
export { ROUTES, type Route } from './routing/route-table.js';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.js';
