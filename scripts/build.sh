#!/usr/bin/env bash
# Builds the Next app (and the agent and CLI packages, when present) if any source is newer than the build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh

if [ -f agent/package.json ] && [ -f agent/build.mjs ]; then
  node agent/build.mjs
fi
if [ -f cli/package.json ] && [ -f cli/build.mjs ]; then
  node cli/build.mjs
fi
# The route table both pipelines and the role gate read; fails when a route lacks a matrix entry.
npx tsx scripts/routes.ts
dist=${NEXT_DIST_DIR:-.next}
stale=yes
if [ -f "$dist/BUILD_ID" ]; then
  newer=$(find app components lib public next.config.js package-lock.json proxy.ts -newer "$dist/BUILD_ID" -type f ! -name agent.tgz ! -name cli.tgz -print -quit 2>/dev/null)
  [ -z "$newer" ] && stale=no
fi
if [ "$stale" = yes ]; then
  echo "› Building the console (a first build takes 1–6 minutes on 2 cores, by load; later starts skip it)"
  export NEXT_TELEMETRY_DISABLED=1
  with_progress "building" npx next build
fi
