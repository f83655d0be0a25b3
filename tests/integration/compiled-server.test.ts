import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { onPostgres, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { freePort } from "../support/servers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROBE = path.resolve(import.meta.dirname, "../support/source-map-probe.cjs");
const consoles: ConsoleHandle[] = [];
afterAll(async () => {
  await Promise.all(consoles.map((c) => c.stop()));
});

// Production runs dist/server.mjs (scripts/compile-server.mjs, built by scripts/build.sh); these
// tests need that build, as every console test needs Next's.
describe("the compiled server", () => {
  it("starts on a fresh database and serves set-up, sign-in and the API, with no tsx loaded and without Next's source maps", async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-compiled-")), "probe.json");
    const sb = await startConsole({ compiled: true, env: { SWITCHBOARD_TEST_SOURCE_MAP_PROBE: out }, nodeArgs: ["--require", PROBE] });
    consoles.push(sb);
    const setup = await fetch(`${sb.url}/api/v1/setup`);
    expect(setup.status).toBe(200);
    expect(await setup.json()).toMatchObject({ needed: true });
    // Set-up, a sign-in through better-auth and an API read: route chunks, Prisma and the auth handler load.
    const owner = await setupOwner(sb.url);
    await sessionCookie(sb.url, owner.email, owner.password);
    expect((await owner.api("GET", "/api/v1/me")).status).toBe(200);
    for (const page of ["/", "/sign-in"]) await (await fetch(`${sb.url}${page}`)).arrayBuffer();
    process.kill(sb.pid(), "SIGUSR2");
    await waitFor(() => fs.existsSync(out) && fs.statSync(out).size > 0, 30_000);
    const probe = JSON.parse(fs.readFileSync(out, "utf8")) as { compiledSources: string[] | null; tsx: string[]; mapped: string[]; chunks: number; nextServerMapped: boolean; chunkMapped: boolean };
    expect(probe.tsx).toEqual([]);
    // Stack traces through our code name our TypeScript files and lines; Next's and CommonJS
    // packages' maps are not kept (packages' ES modules keep theirs: server.ts says why).
    expect(probe.compiledSources).toContain("lib/start/index.ts");
    expect(probe.mapped).toEqual([]);
    expect(probe.chunks).toBeGreaterThan(0);
    expect([probe.nextServerMapped, probe.chunkMapped]).toEqual([false, false]);
  }, 120_000);

  // A restart of a built console: no install, no generate, no build; migrate only on a database
  // that lacks a migration (here the first start, on a new SQLite file: once, on the SQLite pass).
  it.skipIf(onPostgres)("npm start skips every step whose inputs did not change, and migrates a new database", async () => {
    if (spawnSync("bash", ["scripts/build.sh", "--check"], { cwd: ROOT }).status !== 0) throw new Error("The build is not that of the current sources: run scripts/build.sh");
    const lock = fs.statSync(path.join(ROOT, "package-lock.json")).mtimeMs;
    if (lock > fs.statSync(path.join(ROOT, "node_modules/.package-lock.json")).mtimeMs) throw new Error("package-lock.json is newer than node_modules: run npm install");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-start-"));
    const databaseUrl = `file:${path.join(dir, "fresh.db")}`;
    const first = await npmStart(databaseUrl);
    expect(first.steps).toEqual(["› Migrating the database", "› Starting Switchboard"]);
    const second = await npmStart(databaseUrl);
    expect(second.steps).toEqual(["› Starting Switchboard"]);
    console.log(`npm start on a built tree: ${first.ms} ms with a migration, ${second.ms} ms without`);
  }, 180_000);
});

/** Runs scripts/start.sh until the console answers, then stops it: the steps it announced and how long it took. */
async function npmStart(databaseUrl: string): Promise<{ steps: string[]; ms: number }> {
  const port = await freePort();
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, SWITCHBOARD_SECRET: "test-secret-for-switchboard", SWITCHBOARD_TEST: "1", NEXT_TELEMETRY_DISABLED: "1" };
  // start.sh ends by exec'ing node: this child is the console.
  const child = spawn("bash", ["scripts/start.sh"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
      if (!output.includes("Switchboard listening on")) return false;
      return (await fetch(`http://127.0.0.1:${port}/api/v1/setup`).catch(() => undefined))?.ok === true;
    }, 120_000, () => output);
    const ms = Date.now() - started;
    return { steps: output.split("\n").filter((line) => line.startsWith("› ")).map((line) => line.replace(/ (\(|on ).*$/, "")), ms };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}
