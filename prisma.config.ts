import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseUrl, isPostgresUrl } from "./lib/core/db/url";

// One config for both databases: DATABASE_URL decides the schema, migrations and driver.
process.env.DATABASE_URL ??= databaseUrl();
const postgres = isPostgresUrl(process.env.DATABASE_URL);
const dir = postgres ? path.join("prisma", "postgres") : "prisma";

// PostgreSQL catalog types the adapter cannot describe, read by Prisma Migrate's introspection
// (prisma/orm#27403: `name`, `"char"`), passed on as text, which is what they are.
const CATALOG_TEXT_TYPES = new Set([18, 19]);
type Field = { dataTypeID: number };
type Queryable = { performIO(query: unknown): Promise<{ fields: Field[] }> };

function describingCatalogTypes(adapter: object): void {
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(adapter)) as Queryable & { patched?: boolean };
  if (proto.patched || typeof proto.performIO !== "function") return;
  const performIO = proto.performIO;
  proto.performIO = async function (this: Queryable, query) {
    const result = await performIO.call(this, query);
    for (const field of result.fields) if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = 25;
    return result;
  };
  proto.patched = true;
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(dir, "schema.prisma"),
  migrations: { path: path.join(dir, "migrations") },
  async adapter() {
    if (!postgres) return new PrismaBetterSQLite3({ url: databaseUrl() });
    const factory = new PrismaPg({ connectionString: databaseUrl() });
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const adapter = await connect();
      describingCatalogTypes(adapter);
      return adapter;
    };
    return factory;
  },
});
