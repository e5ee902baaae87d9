import { createServiceDeps, type ServiceDeps } from '@partner/http';
import { HmacKey, type SealingKeys } from '@partner/signing';
import type { WebhooksConfig } from './config.js';
import type { TargetPolicy } from './targets/target-policy.js';

export interface WebhooksDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorKey: HmacKey;
  /** Seals endpoint signing secrets, and the stored answers that carry them. */
  sealing: SealingKeys;
  targets: TargetPolicy;
  /** How many endpoints one owner may have (an event becomes a delivery per endpoint). */
  maxEndpointsPerOwner: number;
}

export async function createDeps(config: WebhooksConfig): Promise<{ deps: WebhooksDeps; closeDeps: () => Promise<void> }> {
  const { deps, closeDeps } = await createServiceDeps('webhooks', config, { purgesIdempotencyRecords: true });
  return {
    deps: {
      ...deps,
      internalPublicKey: config.internalPublicKey,
      cursorKey: new HmacKey(config.cursorSecret),
      sealing: config.sealing,
      targets: { allowPrivate: config.allowPrivateTargets },
      maxEndpointsPerOwner: config.maxEndpointsPerOwner,
    },
    closeDeps,
  };
}
