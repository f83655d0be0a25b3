#!/usr/bin/env bash
# One command runs the app: install, migrate and build as needed, then serve the compiled server.
# Each step is skipped when its inputs did not change, so a restart of a built console is node
# starting dist/server.mjs (docs/benchmarks.md, "Restart of a built console").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
# The database and the secret key are for this user only (files 0600, directories 0700).
umask 077

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "› Installing dependencies (the first time, npm compiles the SQLite driver: ~3 minutes on 2 cores)"
  # npm ci rejects this lock file: npm 11 leaves other platforms' optional packages out of it.
  with_progress "installing" npm install --no-audit --no-fund
fi
# Asking the database which migrations it has takes a tenth of Prisma's start-up.
if ! node scripts/db-migrated.mjs; then
  echo "› Migrating the database ($(printf %s "${DATABASE_URL:-file:./data/switchboard.db}" | sed -E 's#//[^@/]*@#//…@#'))"
  node node_modules/prisma/build/index.js migrate deploy
fi
bash scripts/build.sh
echo "› Starting Switchboard on http://${HOST:-127.0.0.1}:${PORT:-3000}"
NODE_ENV=production exec node dist/server.mjs
