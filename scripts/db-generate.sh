#!/usr/bin/env bash
# Generates both Prisma clients from the one set of models: SQLite (@prisma/client) and
# PostgreSQL (.prisma/client-postgres). prisma.config.ts picks the schema from DATABASE_URL;
# generating connects to nothing, so any postgres:// URL selects the PostgreSQL schema.
set -euo pipefail
cd "$(dirname "$0")/.."
for url in file:./data/generate.db postgresql://generate@127.0.0.1/generate; do
  out=$(DATABASE_URL=$url node node_modules/prisma/build/index.js generate 2>&1) || { echo "$out" >&2; exit 1; }
done
