/**
 * Writes prisma/postgres/schema.prisma from prisma/schema.prisma: the models are one source, the
 * PostgreSQL copy differs only in its datasource provider, where its client is generated, and the
 * fields marked `// postgres: String[]` (lists: JSON text on SQLite, where better-auth's Prisma
 * adapter stores them so, native arrays on PostgreSQL, where it writes arrays).
 * `npm run db:schema` after editing the models; a unit test fails when the copy is stale.
 */
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
export const SQLITE_SCHEMA = path.join(ROOT, "prisma/schema.prisma");
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma/postgres/schema.prisma");

export function postgresSchema(sqlite: string): string {
  const out = sqlite
    .replace(/provider(\s*)= "sqlite"/, 'provider$1= "postgresql"')
    .replace(/provider(\s*)= "prisma-client-js"\n/, 'provider$1= "prisma-client-js"\n  output          = "../../node_modules/.prisma/client-postgres"\n')
    .replace(/^(\s+\w+\s+)String\??( [^\n]*?)? *\/\/ postgres: String\[\]$/gm, (_, head: string, rest = "") => `${head}String[]${rest}`.trimEnd());
  if (out === sqlite) throw new Error("prisma/schema.prisma no longer has the expected generator and datasource blocks");
  return `// Generated from prisma/schema.prisma by \`npm run db:schema\`: edit that file, not this one.\n\n${out}`;
}

/** The fields marked `// postgres: String[]`, by model delegate name (`gatewayOAuthClient`): lists that db:copy parses. */
export function postgresListFields(sqlite: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let model = "";
  for (const line of sqlite.split("\n")) {
    const start = /^model (\w+) \{/.exec(line);
    if (start) model = start[1]![0]!.toLowerCase() + start[1]!.slice(1);
    const field = /^\s+(\w+)\s+String\??\b.*\/\/ postgres: String\[\]$/.exec(line);
    if (field && model) (out[model] ??= []).push(field[1]!);
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  fs.writeFileSync(POSTGRES_SCHEMA, postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  console.log(`wrote ${path.relative(ROOT, POSTGRES_SCHEMA)}`);
}
