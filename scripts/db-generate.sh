#!/usr/bin/env bash
# Generates both Prisma clients from the one set of models: SQLite (@prisma/client) and
# PostgreSQL (.prisma/client-postgres). prisma.config.ts picks the schema from DATABASE_URL;
# generating connects to nothing, so any postgres:// URL selects the PostgreSQL schema.
# Skipped when both clients exist and were generated from these schemas by this Prisma (a stamp
# beside them; an `npm install` that replaces them removes it).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.prisma/switchboard-generated
inputs=$(cat prisma/schema.prisma prisma/postgres/schema.prisma prisma.config.ts node_modules/prisma/package.json | cksum)
if [ -f node_modules/.prisma/client/index.js ] && [ -f node_modules/.prisma/client-postgres/index.js ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
  exit 0
fi
echo "› Generating the database clients"
for url in file:./data/generate.db postgresql://generate@127.0.0.1/generate; do
  out=$(DATABASE_URL=$url node node_modules/prisma/build/index.js generate 2>&1) || { echo "$out" >&2; exit 1; }
done
printf '%s\n' "$inputs" > "$stamp"
