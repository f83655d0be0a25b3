/**
 * `npm run db:copy -- --to postgresql://…` moves a SQLite console's data into an empty PostgreSQL
 * database: migrates the target, copies every table in foreign-key order in pages (secrets stay
 * sealed: they are copied as stored, so keep the same SWITCHBOARD_SECRET or data/secret.key),
 * moves the id sequences past the copied rows, and checks every table's row count.
 * `--from` defaults to the console's own SQLite file. Stop the console first.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseUrl, isPostgresUrl } from "../lib/core/db/url";
import { postgresListFields, SQLITE_SCHEMA } from "./db-schema";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Every model, parents before children (Agent before Server, calls by start so reruns follow originals). */
export const COPY_ORDER = [
  "user", "session", "account", "verification", "workspace", "member", "apiToken", "agent", "agentPairing", "server",
  "mcpSession", "call", "instance", "interaction", "sessionLog", "trafficMessage", "trafficPin", "invitation", "auditEvent",
  "callNote", "callTag", "callStar", "savedView", "oAuthClient", "oAuthCredential", "oAuthFlow", "oAuthTrace", "gatewayExposure", "gatewayConnection",
  "gatewayOAuthClient", "gatewayOAuthResource", "gatewayOAuthClientResource", "gatewayOAuthConsent",
  "gatewayOAuthRefreshToken", "gatewayOAuthAccessToken", "collection", "environment", "collectionRun", "collectionRunStep", "share",
  "identityToken", "ssoProvider",
  "capabilitySnapshot", "capabilityWatch", "monitor", "monitorTick", "incident", "alert", "alertSeen",
  "policySet", "policyVersion", "approval", "virtualServer", "mock", "replay", "replayItem", "loadTest",
  "workspaceSequence", "auditSink", "auditOutbox", "scimUser", "scimGroup",
] as const;
/**
 * Short-lived counters (failed sign-ins), client-assertion replay tombstones and background jobs'
 * claims (a week's worth of due times) that start afresh on the new database, and the dashboard's
 * rollups: derived from the calls, rebuilt by the new console on first use.
 */
export const NOT_COPIED = ["rateLimit", "callRollup", "callRollupState", "callRollupPending", "gatewayOAuthClientAssertion", "jobClaim"] as const;
/** Models without an `id` column page by their own key. */
const COMPOUND_KEYS: Record<string, string[]> = { callTag: ["callId", "tag"], callStar: ["userId", "callId"], trafficPin: ["userId", "messageId"], gatewayExposure: ["serverId"], capabilityWatch: ["serverId"], policySet: ["workspaceId"], collectionRunStep: ["runId", "index"], replayItem: ["replayId", "index"], workspaceSequence: ["workspaceId", "name"], auditOutbox: ["workspaceId", "seq"] };
const SEQUENCES = { sessionLog: "session_log", trafficMessage: "traffic_message", auditEvent: "audit_event" } as const;
const PAGE = 1000;

type Delegate = {
  findMany(args: object): Promise<Record<string, unknown>[]>;
  createMany(args: { data: Record<string, unknown>[] }): Promise<{ count: number }>;
  count(): Promise<number>;
};
const delegate = (client: unknown, model: string) => (client as Record<string, Delegate>)[model]!;

export async function copyDatabase({ from, to, log = console.log }: { from: string; to: string; log?: (line: string) => void }) {
  if (!from.startsWith("file:")) throw new Error(`--from must be a SQLite file URL (file:…), not ${from}`);
  if (!isPostgresUrl(to)) throw new Error("--to must be a PostgreSQL URL (postgresql://…)");

  const migrate = spawnSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: to },
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`Migrating the target failed:\n${migrate.stdout}\n${migrate.stderr}`);

  const source = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: from }) });
  const load = createRequire(path.join(ROOT, "package.json"));
  const { PrismaClient: PostgresClient } = load(path.join(ROOT, "node_modules/.prisma/client-postgres")) as { PrismaClient: new (o: object) => object };
  const lists = postgresListFields(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
  const target = new PostgresClient({ adapter: new PrismaPg({ connectionString: to }) }) as PrismaClient;
  try {
    for (const model of COPY_ORDER) {
      if ((await delegate(target, model).count()) > 0) throw new Error(`The target already holds data (table of ${model}); copy into an empty database`);
    }
    const counts: Record<string, number> = {};
    for (const model of COPY_ORDER) {
      const keys = COMPOUND_KEYS[model] ?? ["id"];
      const orderBy = [...(model === "call" ? [{ startedAt: "asc" }] : []), ...keys.map((key) => ({ [key]: "asc" }))];
      const cursorOf = (row: Record<string, unknown>) =>
        keys.length === 1 ? { [keys[0]!]: row[keys[0]!] } : { [keys.join("_")]: Object.fromEntries(keys.map((key) => [key, row[key]])) };
      let copied = 0;
      for (let cursor: object | undefined = undefined; ; ) {
        const rows: Record<string, unknown>[] = await delegate(source, model).findMany({ orderBy, take: PAGE, ...(cursor ? { cursor, skip: 1 } : {}) });
        if (!rows.length) break;
        const data = lists[model] ? rows.map((row) => parseLists(row, lists[model]!)) : rows;
        copied += (await delegate(target, model).createMany({ data })).count;
        cursor = cursorOf(rows[rows.length - 1]!);
      }
      counts[model] = copied;
      const expected = await delegate(source, model).count();
      if ((await delegate(target, model).count()) !== expected) throw new Error(`Row counts differ for ${model} after copying`);
      if (copied) log(`${model}: ${copied.toLocaleString("en")}`);
    }
    for (const [model, table] of Object.entries(SEQUENCES)) {
      if (counts[model]) await target.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT MAX(id) FROM "${table}"))`);
    }
    return counts;
  } finally {
    await Promise.all([source.$disconnect(), target.$disconnect()]);
  }
}

/** better-auth's lists: JSON text on SQLite, arrays on PostgreSQL. */
function parseLists(row: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out = { ...row };
  for (const name of names) {
    const value = out[name];
    if (typeof value === "string") out[name] = JSON.parse(value) as unknown;
    else if (value === null) delete out[name];
  }
  return out;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const to = arg("to");
  const from = arg("from") ?? (isPostgresUrl(databaseUrl()) ? undefined : databaseUrl());
  if (!to || !from) {
    console.error("Usage: npm run db:copy -- --to postgresql://user@host/db [--from file:./data/switchboard.db]");
    process.exit(2);
  }
  copyDatabase({ from, to }).then(
    () => console.log(`Copied into ${to.replace(/\/\/[^@]*@/, "//…@")}. Start the console with DATABASE_URL set to it (and the same secret).`),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
