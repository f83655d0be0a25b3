#!/usr/bin/env bash
# Builds what production runs, each part only when its inputs changed: Prisma's clients, the agent
# and CLI packages, the route table, the Next app (.next) and the compiled server (dist/). When no
# input is newer than the last complete build (a stamp in the Next build), all of it is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh

dist=${NEXT_DIST_DIR:-.next}
stamp=$dist/switchboard-built
# What the Next build reads, and what the packages and the compiled server read besides (the
# packages' tarballs in public/ are outputs).
next_inputs=(app components lib public next.config.js package-lock.json proxy.ts)
other_inputs=(server.ts tsconfig.json scripts/compile-server.mjs scripts/routes.ts scripts/pack-package.mjs agent/src agent/package.json cli/src cli/package.json)
newer() { local than=$1; shift; find "$@" -newer "$than" -type f ! -name agent.tgz ! -name cli.tgz -print -quit 2>/dev/null; }
built() { [ -f "$stamp" ] && [ -f dist/server.mjs ] && [ -z "$(newer "$stamp" "${next_inputs[@]}" "${other_inputs[@]}")" ]; }
# --check: exits 0 when the build is that of the current sources, 1 when a start would build.
if [ "${1:-}" = --check ]; then built; exit; fi

bash scripts/db-generate.sh
built && exit 0
echo "› Building what changed since the last build"

if [ -f agent/package.json ] && [ -f agent/build.mjs ]; then
  node agent/build.mjs
fi
if [ -f cli/package.json ] && [ -f cli/build.mjs ]; then
  node cli/build.mjs
fi
# The route table both pipelines and the role gate read; fails when a route lacks a matrix entry.
npx tsx scripts/routes.ts
# Sources edited from here on are newer than the stamp: the next start builds again.
begun=$(mktemp)
trap 'rm -f "$begun"' EXIT
if [ ! -f "$dist/BUILD_ID" ] || [ -n "$(newer "$dist/BUILD_ID" "${next_inputs[@]}")" ]; then
  echo "› Building the console (a first build takes 1–6 minutes on 2 cores, by load; later starts skip it)"
  export NEXT_TELEMETRY_DISABLED=1
  with_progress "building" npx next build
  # A source edited while Next was building may not be in it: the build counts from its start.
  touch -r "$begun" "$dist/BUILD_ID"
fi
node scripts/compile-server.mjs
touch -r "$begun" "$stamp"
