import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { testDatabase, type TestDatabase } from "./database";
import { copyMigratedSqlite, migrateDeploy } from "./migrated";
import { createMigratedPostgresDatabase } from "./postgres";
import { freePort } from "./servers";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** What production runs (scripts/compile-server.mjs, built by scripts/build.sh). */
const COMPILED_ENTRY = "dist/server.mjs";

/**
 * The compiled server a console runs: this vitest run's own build (tests/support/compile-setup.ts),
 * else dist/ (the browser tests: playwright.config.ts sets SWITCHBOARD_TEST_COMPILED=1, and
 * scripts/build.sh has run). undefined: from source, with tsx (SWITCHBOARD_TEST_FROM_SOURCE=1 makes
 * that the default, `compiled: false` asks it for one console).
 */
function compiledEntry(compiled: boolean | undefined, root: string): string | undefined {
  if (compiled === false || (compiled === undefined && process.env.SWITCHBOARD_TEST_FROM_SOURCE === "1")) return undefined;
  if (root !== ROOT) return compiled ? path.join(root, COMPILED_ENTRY) : undefined;
  const entry = process.env.SWITCHBOARD_TEST_SERVER_ENTRY ?? (compiled || process.env.SWITCHBOARD_TEST_COMPILED === "1" ? path.join(ROOT, COMPILED_ENTRY) : undefined);
  if (entry && !fs.existsSync(entry)) throw new Error(`${path.relative(ROOT, entry)} is missing: run scripts/build.sh`);
  return entry;
}

export interface ConsoleHandle {
  url: string;
  /** The SQLite file ("" on PostgreSQL: tests about the file itself skip there). */
  dbFile: string;
  databaseUrl: string;
  /** Direct access to the console's database, on either engine. */
  db: TestDatabase;
  /** Stops the process (SIGTERM, or SIGKILL with `{ crash: true }`). */
  stop(opts?: { crash?: boolean }): Promise<void>;
  /** Starts the console again on the same port and database. */
  restart(): Promise<void>;
  logs(): string;
  /** The console process's pid (to read its memory from /proc). */
  pid(): number;
  /** Closes the pipes the console logs into, as a parent that went away would. */
  closeOutput(): void;
}

/** True when this test run is the PostgreSQL pass of the integration suite (vitest project integration-postgres). */
export const onPostgres = process.env.SWITCHBOARD_TEST_DATABASE === "postgres";

/**
 * A fresh migrated database for one console: a SQLite file in `dir`, or on the PostgreSQL pass a
 * new database on the server the suite started on loopback (tests/support/postgres-setup.ts),
 * each a copy of a template migrated once (tests/support/migrated.ts).
 */
async function freshDatabase(dir: string): Promise<{ databaseUrl: string; dbFile: string }> {
  if (!onPostgres) {
    const dbFile = path.join(dir, "test.db");
    // A database left in a given dataDir is kept, and brought up to date as before.
    if (fs.existsSync(dbFile)) migrateDeploy(`file:${dbFile}`);
    else copyMigratedSqlite(dbFile);
    return { databaseUrl: `file:${dbFile}`, dbFile };
  }
  return { databaseUrl: await createMigratedPostgresDatabase(`sb_${path.basename(dir)}`), dbFile: "" };
}

/**
 * Starts the built console (`next build` must have run) on 127.0.0.1 with its own database (a
 * SQLite file, or a PostgreSQL database on the loopback test server), migrated. `databaseUrl`: a
 * database of the caller's, migrated with `prisma migrate deploy`. `join`: another console runs
 * on this database already (pass its `databaseUrl`, or the same `dataDir` on SQLite). `compiled`:
 * true, the compiled server (the default under vitest, see compiledEntry), or false, server.ts from
 * source with tsx (tests of what only source does: lib/start/node-hooks.mjs). `root`: another
 * checkout, built, whose server runs from its own directory (bench/compare.ts; pass a database its
 * own migrations made, with `join`).
 */
export async function startConsole(opts: { env?: Record<string, string>; dataDir?: string; databaseUrl?: string; join?: boolean; nodeArgs?: string[]; compiled?: boolean; root?: string } = {}): Promise<ConsoleHandle> {
  const root = opts.root ?? ROOT;
  const dir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "sb-console-"));
  const { databaseUrl, dbFile } = opts.databaseUrl
    ? { databaseUrl: opts.databaseUrl, dbFile: opts.databaseUrl.startsWith("file:") ? opts.databaseUrl.slice(5) : "" }
    : opts.join && !onPostgres
      ? { databaseUrl: `file:${path.join(dir, "test.db")}`, dbFile: path.join(dir, "test.db") }
      : await freshDatabase(dir);
  if (opts.databaseUrl && !opts.join) migrateDeploy(opts.databaseUrl);

  const entry = compiledEntry(opts.compiled, root);
  let port = await freePort();
  let url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let output = "";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    SWITCHBOARD_SECRET: "test-secret-for-switchboard",
    SWITCHBOARD_TEST: "1",
    NEXT_TELEMETRY_DISABLED: "1",
    ...opts.env,
  };

  const start = async () => {
    // node itself, not the tsx wrapper, so that a SIGKILL really kills the console.
    const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...(entry ? [entry] : ["--import", "tsx", "server.ts"])], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child = proc;
    const from = output.length;
    proc.stdout.on("data", (d) => (output += d));
    proc.stderr.on("data", (d) => (output += d));
    await waitFor(async () => {
      if (child!.exitCode !== null) throw new Error(`console exited early:\n${output}`);
      // Our own log line first: another process answering on this port must not pass for us.
      if (!output.slice(from).includes("Switchboard listening on")) return false;
      const res = await fetch(`${url}/api/v1/setup`).catch(() => undefined);
      return res?.ok === true;
    }, 60_000, () => output);
  };

  const stop = async ({ crash = false } = {}) => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill(crash ? "SIGKILL" : "SIGTERM");
    await exited;
  };

  // Another process may still take the port between freePort() and the console binding it.
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (err) {
      if (attempt === 3 || !/Cannot listen on .*EADDRINUSE/.test(output)) throw err;
      output = "";
      port = await freePort();
      url = `http://127.0.0.1:${port}`;
      env.PORT = String(port);
    }
  }
  return { url, dbFile, databaseUrl, db: testDatabase(databaseUrl), stop, restart: start, logs: () => output, pid: () => child!.pid!, closeOutput: () => (child!.stdout!.destroy(), child!.stderr!.destroy()) };
}

/** Polls `check` until it returns true or the deadline passes. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000, describe?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms${describe ? `\n${describe()}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A tiny API client for tests: JSON in, `{ status, body }` out. */
export function apiClient(base: string, token?: string) {
  return async function api<T = any>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
    const send = () =>
      fetch(`${base}${route}`, {
        method,
        headers: {
          // Browsers send Origin on every non-GET request; the console refuses cookie writes without it.
          origin: base,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A keep-alive socket the console closed while this process was busy fails once on reuse;
    // a GET changes nothing, so it is simply sent again on a fresh socket.
    const res = await send().catch((err: Error) => {
      if (method !== "GET" || !/ECONNRESET|other side closed/.test(String((err.cause as Error | undefined)?.message ?? err))) throw err;
      return send();
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  };
}

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

/** Invites a person with `role` and accepts as they would (a new account): they can sign in with `email` and `password`. */
export async function joinByInvitation(base: string, api: ReturnType<typeof apiClient>, person: { email: string; role: string; name: string; password: string }): Promise<void> {
  const invited = await api("POST", "/api/v1/invitations", { email: person.email, role: person.role });
  if (invited.status !== 201) throw new Error(`invitation failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await fetch(`${base}/api/v1/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ token: String(invited.body.invitation.url).split("/invite/")[1], name: person.name, password: person.password }),
  });
  if (accepted.status !== 200) throw new Error(`accepting the invitation failed: ${accepted.status} ${await accepted.text()}`);
}

/** Runs first-run set-up and returns an API client with the owner's token, and the owner's sign-in. */
export async function setupOwner(base: string) {
  const api = apiClient(base);
  const res = await api("POST", "/api/v1/setup", { ...OWNER, workspaceName: "Default" });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token as string, workspace: res.body.workspace, api: apiClient(base, res.body.token), email: OWNER.email, password: OWNER.password };
}

/** Signs in to the console as a browser does and returns the session cookie (`name=value; …`). */
export async function sessionCookie(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
