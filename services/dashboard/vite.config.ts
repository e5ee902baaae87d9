import { gzipSync } from 'node:zlib';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

/** The budget: the JavaScript a first visit loads, gzipped. */
const FIRST_LOAD_BUDGET_BYTES = 200 * 1024;

/**
 * Measures what the first page load fetches (the entry chunk and every chunk it imports statically,
 * not the lazy ones) gzipped, prints it, and fails the build past the budget.
 */
function firstLoadBudget(): Plugin {
  return {
    name: 'first-load-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const loaded = new Set<string>();
      const visit = (name: string) => {
        if (loaded.has(name)) return;
        loaded.add(name);
        for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
      };
      visit(entry.fileName);
      const bytes = [...loaded].reduce((sum, name) => sum + gzipSync(chunks.get(name)!.code, { level: 9 }).length, 0);
      const line = `first load: ${(bytes / 1024).toFixed(1)} KB of JavaScript gzipped in ${loaded.size} file(s) (budget ${FIRST_LOAD_BUDGET_BYTES / 1024} KB)`;
      this.emitFile({
        type: 'asset',
        fileName: 'first-load.json',
        source: JSON.stringify({ gzippedBytes: bytes, files: [...loaded], budgetBytes: FIRST_LOAD_BUDGET_BYTES }),
      });
      if (bytes > FIRST_LOAD_BUDGET_BYTES) this.error(line);
      console.log(line);
    },
  };
}

export default defineConfig({
  root: 'web',
  plugins: [preact(), firstLoadBudget()],
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: true, target: 'es2022' },
  server: { proxy: { '/console': process.env.CONSOLE_URL ?? 'http://127.0.0.1:8084' } },
});
