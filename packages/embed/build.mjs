// Builds the embed files served by the gateway at /embed/* and prints the gzipped size of what a
// page loads before the first tap or open, against the 20 KB budget. The 3D runtime (model-viewer)
// is a file of its own, fetched only when a visitor asks for the 3D view.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { createSampleDishGlb, createSampleDishUsdz, createSampleThumbnailPng } from '@partner/sample-dish';

const BUDGET_BYTES = 20 * 1024;
const entries = { v1: 'src/viewer.ts', 'concierge.v1': 'src/concierge.ts' };
mkdirSync('dist', { recursive: true });
await esbuild.build({ entryPoints: entries, outdir: 'dist', bundle: true, minify: true, format: 'iife', target: 'es2020', legalComments: 'none' });
await esbuild.build({
  entryPoints: { 'model-viewer.v1': '@google/model-viewer' },
  outdir: 'dist',
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  legalComments: 'none',
});
// The sample dish of `demo`, shipped with the scripts.
writeFileSync('dist/sample-dish.glb', createSampleDishGlb());
writeFileSync('dist/sample-dish.usdz', createSampleDishUsdz());
writeFileSync('dist/sample-dish.png', createSampleThumbnailPng());

let over = false;
for (const name of Object.keys(entries)) {
  const size = gzipSync(readFileSync(`dist/${name}.js`)).length;
  over ||= size > BUDGET_BYTES;
  console.log(`${name}.js: ${(size / 1024).toFixed(1)} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)${size > BUDGET_BYTES ? ' OVER BUDGET' : ''}`);
}
const runtime = gzipSync(readFileSync('dist/model-viewer.v1.js')).length;
console.log(`model-viewer.v1.js: ${(runtime / 1024).toFixed(1)} KB gzipped (loaded on the first tap only)`);
if (over) process.exit(1);
