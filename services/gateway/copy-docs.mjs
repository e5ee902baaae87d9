// Part of `pnpm build`: what /docs serves, into dist/ (the image ships dist/, not these sources).
// - Redoc's self-contained bundle, with its sidebar's "made by" logo, which it fetches from a CDN, taken
//   out: the reference works offline, and its page policy would refuse the request (a console error).
// - The integrator guides and the published packages' READMEs, served at /docs/guides/ (src/openapi/guides.ts).
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const dist = new URL('dist/', import.meta.url);

const LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const redoc = readFileSync(new URL('node_modules/redoc/bundles/redoc.standalone.js', import.meta.url), 'utf8');
if (!redoc.includes(LOGO)) throw new Error(`Redoc's bundle no longer names ${LOGO}: check what it fetches now.`);
// An empty image fails to load, and Redoc then leaves the logo out.
writeFileSync(new URL('redoc.standalone.js', dist), redoc.replaceAll(LOGO, 'data:,'));

const guides = new URL('guides/', dist);
rmSync(guides, { recursive: true, force: true });
mkdirSync(guides, { recursive: true });
cpSync(new URL('docs/guides/', root), guides, { recursive: true });
copyFileSync(new URL('packages/sdk/README.md', root), new URL('sdk.md', guides));
copyFileSync(new URL('packages/contracts/README.md', root), new URL('contracts.md', guides));
