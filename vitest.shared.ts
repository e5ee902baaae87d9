import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Workspace packages export a `source` condition: tests run against their TypeScript directly, no build.
// No `module`: that is a bundlers' condition Node ignores, and the AWS SDK's packages answer it with
// builds Node cannot load (imports without file extensions).
const conditions = ['source', 'node', 'development|production'];

export function sharedConfig(options: { database?: boolean } = {}) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['source'] } },
    test: {
      globalSetup: options.database ? [fileURLToPath(new URL('./packages/testing/src/global-setup.ts', import.meta.url))] : [],
      testTimeout: 20_000,
      hookTimeout: 60_000,
      // Two cores: a couple of files at a time keeps Postgres and the event loops honest.
      maxWorkers: 2,
      // A poll waits for another process, a loop or a write made after an answer, on a machine running
      // four packages' tests at once: 5 s before it fails, not vitest's 1 s. A poll is a wait, never a
      // speed bound; a test that bounds a time says so with its own timeout.
      expect: { poll: { timeout: 5_000 } },
    },
  });
}
