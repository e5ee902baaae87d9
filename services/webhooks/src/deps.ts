import { createServiceDeps, type ServiceDeps } from '@partner/http';
import { HmacKey, type SealingKeys } from '@partner/signing';
import type { WebhooksConfig } from './config.js';
import { WebhookSender } from './dispatcher/sender.js';
import type { TargetPolicy } from './targets/target-policy.js';

export interface WebhooksDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorKey: HmacKey;
  /** Seals endpoint signing secrets, and the stored answers that carry them. */
  sealing: SealingKeys;
  targets: TargetPolicy;
  /** Sends every attempt (the dispatcher's and the test event's), under the same target policy. */
  sender: WebhookSender;
  /** How many endpoints one owner may have (an event becomes a delivery per endpoint). */
  maxEndpointsPerOwner: number;
}

export async function createDeps(config: WebhooksConfig): Promise<{ deps: WebhooksDeps; closeDeps: () => Promise<void> }> {
  const { deps, closeDeps } = await createServiceDeps('webhooks', config, { purgesIdempotencyRecords: true });
  const targets = { allowPrivate: config.allowPrivateTargets };
  const sender = new WebhookSender(targets, deps.now);
  return {
    deps: {
      ...deps,
      internalPublicKey: config.internalPublicKey,
      cursorKey: new HmacKey(config.cursorSecret),
      sealing: config.sealing,
      targets,
      sender,
      maxEndpointsPerOwner: config.maxEndpointsPerOwner,
    },
    closeDeps: async () => {
      await sender.close();
      await closeDeps();
    },
  };
}
