import { writeFileSync } from 'node:fs';
import { committedDocument } from './document.js';

// `pnpm openapi`: writes the document to docs/openapi.json, so that a change to the contract shows in
// review (a test fails while the committed file differs from what the code builds).

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: write-document <file>');
writeFileSync(target, committedDocument());
console.log(`wrote ${target}`);
