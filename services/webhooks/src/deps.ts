import type { ServiceDeps } from '@partner/platform';
import type { TargetPolicy } from './targets/target-policy.js';

export interface WebhooksDeps extends ServiceDeps {
  internalPublicKey: string;
  cursorSecret: string;
  targets: TargetPolicy;
}
