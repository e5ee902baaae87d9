import { fileURLToPath } from 'node:url';

// The services as production runs them (`node dist/main.js`, configured by the environment), for the
// benchmarks that start several of them against one bench database.

export const SERVICES = ['gateway', 'catalog', 'webhooks', 'concierge', 'console'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const PORT_VARIABLE: Record<ServiceName, string> = {
  gateway: 'GATEWAY_PORT',
  catalog: 'CATALOG_PORT',
  webhooks: 'WEBHOOKS_PORT',
  concierge: 'CONCIERGE_PORT',
  console: 'CONSOLE_PORT',
};

export const mainOf = (service: ServiceName) => fileURLToPath(new URL(`../../services/${service}/dist/main.js`, import.meta.url));
