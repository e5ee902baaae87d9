#!/usr/bin/env node
// `pnpm console …` lands here: the root package has no `console` script, so pnpm runs this bin as
// `pnpm exec console` would, and prints no `> pkg@version script` banner before the CLI's output (which
// is often JSON piped to jq). The root depends on @partner/console to have the bin linked.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('The console CLI is not built: run `pnpm build` (`pnpm start` builds it too).');
  process.exit(1);
}
await import(cli.href);
