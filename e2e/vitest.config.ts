import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';

// Browser flows (3D viewer, widget, reference) share two cores with the packing test's npm and tsc:
// a minute each, so that a busy machine is not mistaken for a hang.
export default mergeConfig(sharedConfig({ database: true }), { test: { testTimeout: 60_000 } });
