// One process serving one service twice: a plain instance and an observed one (metrics kept, an access
// line for every request), each on its own port, as `pnpm bench:observability` compares them. In one
// process the two share what makes one process faster than another (its JIT, its heap, its place on
// the core), which between two processes was larger than the 5 % being measured.
import { OBSERVED_ENVIRONMENT } from '@partner/bench-kit';
import { loadCatalogConfig, startCatalog } from '@partner/catalog';
import { loadGatewayConfig, startGateway } from '@partner/gateway';
import type { StartedService } from '@partner/http';

export type HostedService = 'gateway' | 'catalog';
export type Setup = 'plain' | 'observed';

/** What the host reads: the service, and per setup its port (and for the gateway, its catalog's). */
export interface HostEnvironment {
  HOSTED_SERVICE: HostedService;
  PLAIN_PORT: string;
  OBSERVED_PORT: string;
  PLAIN_CATALOG_URL?: string;
  OBSERVED_CATALOG_URL?: string;
  /** `off`: the "observed" instance runs plain too (an A/A run). */
  OBSERVING: 'on' | 'off';
  /** `1`: the observed instance is made first. */
  OBSERVED_FIRST: '0' | '1';
}

function start(service: HostedService, setup: Setup): Promise<StartedService> {
  const prefix = setup === 'plain' ? 'PLAIN' : 'OBSERVED';
  const observed = setup === 'observed' && process.env.OBSERVING === 'on';
  const env = { ...process.env, ...(observed ? OBSERVED_ENVIRONMENT : {}) };
  if (service === 'catalog') return startCatalog(loadCatalogConfig({ ...env, CATALOG_PORT: env[`${prefix}_PORT`] }));
  return startGateway(loadGatewayConfig({ ...env, GATEWAY_PORT: env[`${prefix}_PORT`], CATALOG_URL: env[`${prefix}_CATALOG_URL`] }));
}

const service = process.env.HOSTED_SERVICE as HostedService;
// The bench swaps which instance starts first (and which ports each takes) from round to round, so
// that neither setup keeps an advantage of its place.
const order: Setup[] = process.env.OBSERVED_FIRST === '1' ? ['observed', 'plain'] : ['plain', 'observed'];
const instances = await Promise.all(order.map((setup) => start(service, setup)));
process.on('SIGTERM', () => {
  void Promise.all(instances.map((instance) => instance.shutdown())).finally(() => process.exit(0));
});
