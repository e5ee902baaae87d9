// Builds the embed scripts served by the gateway at /embed/*.js and prints their gzipped sizes
// against the budget (20 KB gzipped for what a page loads before the first tap or open).
import { mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const BUDGET_BYTES = 20 * 1024;
const entries = { 'concierge.v1': 'src/concierge.ts' };
mkdirSync('dist', { recursive: true });
await esbuild.build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  legalComments: 'none',
});
let over = false;
for (const name of Object.keys(entries)) {
  const size = gzipSync(readFileSync(`dist/${name}.js`)).length;
  over ||= size > BUDGET_BYTES;
  console.log(`${name}.js: ${(size / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)${size > BUDGET_BYTES ? ' OVER BUDGET' : ''}`);
}
if (over) process.exit(1);
