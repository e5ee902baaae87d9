#!/usr/bin/env bash
# `pnpm start`: a build, then the stack (infra/src/start.ts), which finds, starts or installs Postgres and
# Redis unless DATABASE_URL / REDIS_URL name others.
#
# Ctrl-C reaches every process of the terminal's foreground group at once. A plain `sh -c` (dash) dies of
# it at once, whatever its child does, and pnpm then reports the script as failed (ELIFECYCLE,
# ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL) although the stack stopped cleanly. So the root script `exec`s this
# bash script, and this script `exec`s Node itself (the real binary, not the node_modules/.bin/node shell
# wrapper): the process pnpm waits for is the launcher, which stops the services on SIGINT and exits 0.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Interrupted before the stack runs (during the build): stop quietly, as after it.
trap 'echo; echo "stopped"; exit 0' INT

turbo run build --output-logs=errors-only

# `node` on pnpm's PATH is the Node 24 of the `node` dev dependency, behind a shell wrapper.
exec "$(node -p process.execPath)" infra/dist/start.js
