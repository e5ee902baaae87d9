export * from './billing-period.js';
export * from './entitlements.js';
export * from './usage-meter.js';
export { readUsage, type UsageMetric } from './usage.repository.js';
