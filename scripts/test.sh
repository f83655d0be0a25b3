#!/usr/bin/env bash
# One command runs every test: types, unit, integration (real servers, real SQLite), browser.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 SWITCHBOARD_TEST=1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # npm ci rejects this lock file: npm 11 leaves other platforms' optional packages out of it.
  npm install --no-audit --no-fund
fi
bash scripts/db-generate.sh
echo "› Type check"
npx tsc --noEmit -p .
echo "› Lint"
npx eslint .
bash scripts/build.sh
# The interoperability suite's Python servers and hosts (pinned; nothing to do when present).
bash tests/interop/venv.sh
echo "› Unit, integration and interoperability tests"
npx vitest run
echo "› Conformance (the MCP suite's client scenarios; fails on a regression against tests/conformance/baseline.json)"
bash scripts/conformance.sh --no-build --no-write
echo "› Browser tests"
npx playwright test
