#!/usr/bin/env bash
# One command runs the app: install, generate, migrate and build as needed, then serve.
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
bash scripts/db-generate.sh
echo "› Migrating the database ($(printf %s "${DATABASE_URL:-file:./data/switchboard.db}" | sed -E 's#//[^@/]*@#//…@#'))"
node node_modules/prisma/build/index.js migrate deploy
bash scripts/build.sh
echo "› Starting Switchboard on http://${HOST:-127.0.0.1}:${PORT:-3000}"
NODE_ENV=production exec node --import tsx server.ts
