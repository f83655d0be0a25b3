import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { freePort, startEverything, type RunningServer } from "../support/servers";
import { findAll, parseXml } from "../support/xml";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** A shell on "a machine with only Node and npm": its own home and npm cache, nothing of this repo on PATH. */
function npx(home: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const PATH = [path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
  const child = spawn("npx", ["-y", ...args], {
    cwd: home,
    env: { HOME: home, PATH, npm_config_cache: path.join(home, ".npm"), npm_config_update_notifier: "false", ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("the CLI served at /cli.tgz, run with npx against a real console and server-everything", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let token: string;
  let collectionId: string;
  let serverId: string;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "sb-cli-"));
  const cli = (...args: string[]) => npx(home, [`${sb.url}/cli.tgz`, ...args]);
  const conn = () => ["--console", sb.url, "--token", token];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    const server = await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 });
    expect(server.status).toBe(201);
    serverId = server.body.server.id;
    const created = await api("POST", "/api/v1/collections", {
      name: "Weather smoke",
      variables: { city: "New York" },
      steps: [
        {
          id: "weather",
          serverId: server.body.server.id,
          method: "tools/call",
          name: "get-structured-content",
          arguments: { location: "{{city}}" },
          assert: [
            { kind: "status", equals: "ok" },
            { kind: "json", path: "/structuredContent/temperature", equals: 33 },
            { kind: "schema" },
          ],
        },
        {
          serverId: server.body.server.id,
          method: "tools/call",
          name: "echo",
          arguments: { message: "It is {{steps.weather#/structuredContent/conditions}}" },
          assert: [{ kind: "json", path: "/content/0/text", equals: "Echo: It is Cloudy" }],
        },
        { serverId: server.body.server.id, method: "tools/list", assert: [{ kind: "json", path: "/tools", contains: { name: "echo" } }] },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    collectionId = created.body.collection.id;
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("is served at /cli.tgz", async () => {
    const res = await fetch(`${sb.url}/cli.tgz`);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });

  it("runs a passing collection by name: JUnit with every step, exit 0, progress printed", async () => {
    const out = path.join(home, "pass.xml");
    const res = await cli("run", "Weather smoke", "--reporter", "junit", "--output", out, ...conn());
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const root = parseXml(fs.readFileSync(out, "utf8"));
    expect(root.attributes).toMatchObject({ tests: "3", failures: "0", errors: "0", skipped: "0" });
    const cases = findAll(root, "testcase");
    expect(cases.map((c) => c.attributes.name)).toEqual(["1. tools/call get-structured-content", "2. tools/call echo", "3. tools/list"]);
    expect(cases.every((c) => c.children.length === 0 && Number(c.attributes.time) >= 0)).toBe(true);
    expect(res.stdout).toMatch(/✓ 1\. tools\/call get-structured-content/);
    expect(res.stdout).toMatch(/PASSED: 3 passed, 0 failed of 3 steps/);

    const runs = (await api("GET", `/api/v1/collections/${collectionId}/runs`)).body.items;
    expect(runs[0]).toMatchObject({ origin: "cli", status: "passed" });
  });

  it("a failing assertion: exit 1, and the JUnit names the step and the path", async () => {
    const out = path.join(home, "fail.xml");
    const res = await cli("run", collectionId, "--var", "city=Chicago", "--reporter", "junit", "--output", out, ...conn());
    expect(res.code, res.stdout + res.stderr).toBe(1);
    const root = parseXml(fs.readFileSync(out, "utf8"));
    expect(root.attributes).toMatchObject({ tests: "3", failures: "1" });
    const [failure] = findAll(root, "failure");
    const failing = findAll(root, "testcase").find((c) => c.children.includes(failure!));
    expect(failing!.attributes.name).toBe("1. tools/call get-structured-content");
    expect(failure!.attributes.message).toContain("/structuredContent/temperature: expected 33, got 36");
    expect(res.stdout).toMatch(/✗ 1\. tools\/call get-structured-content/);
  });

  it("json on stdout is the final run; --all runs every step", async () => {
    const res = await cli("run", "Weather smoke", "--var", "city=Chicago", "--all", "--reporter", "json", ...conn());
    expect(res.code, res.stderr).toBe(1);
    const run = JSON.parse(res.stdout);
    expect(run).toMatchObject({ status: "failed", origin: "cli", stopOnFailure: false });
    expect(run.steps.map((s: { status: string }) => s.status)).toEqual(["failed", "failed", "passed"]);
  });

  it("runs a 100-step collection, each step using the one before, and the JUnit has all 100", async () => {
    const steps = Array.from({ length: 100 }, (_, i) => ({
      serverId,
      method: "tools/call",
      name: "echo",
      arguments: { message: i === 0 ? "start" : `{{steps.${i}#/content/0/text}}` },
      assert: [{ kind: "json", path: "/content/0/text", matches: "start$" }] as Record<string, unknown>[],
    }));
    steps[99]!.assert.push({ kind: "json", path: "/content/0/text", equals: `${"Echo: ".repeat(100)}start` });
    const created = await api("POST", "/api/v1/collections", { name: "Hundred", steps });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const out = path.join(home, "hundred.xml");
    const res = await cli("run", "Hundred", "--reporter", "junit", "--output", out, ...conn());
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const root = parseXml(fs.readFileSync(out, "utf8"));
    expect(root.attributes).toMatchObject({ tests: "100", failures: "0", errors: "0", skipped: "0" });
    expect(findAll(root, "testcase").map((c) => c.attributes.name)).toEqual(steps.map((_, i) => `${i + 1}. tools/call echo`));
    expect(res.stdout.match(/✓ \d+\. tools\/call echo/g)).toHaveLength(100);
  });

  it("exit 2 with one clear line: a bad token, an unknown collection, no console", async () => {
    const bad = await cli("run", "Weather smoke", "--console", sb.url, "--token", "sb_not_a_token");
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^switchboard: the console refused the API token \(401\)/m);
    const unknown = await cli("run", "No such collection", ...conn());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('switchboard: no collection "No such collection" in this workspace');
    const port = await freePort();
    const gone = await cli("run", "Weather smoke", "--console", `http://127.0.0.1:${port}`, "--token", token);
    expect(gone.code).toBe(2);
    expect(gone.stderr.trim()).toBe(`switchboard: cannot reach the console at http://127.0.0.1:${port}: ECONNREFUSED`);
  });

  it("exports a collection to a file and imports it back", async () => {
    const file = path.join(home, "smoke.json");
    const exported = await cli("export", "Weather smoke", "--output", file, ...conn());
    expect(exported.code, exported.stderr).toBe(0);
    const content = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(content).toMatchObject({ switchboard: "collection", version: 1, name: "Weather smoke", variables: { city: "New York" } });
    expect(content.steps).toHaveLength(3);
    fs.writeFileSync(file, JSON.stringify({ ...content, name: "Weather smoke (copy)" }));
    const imported = await cli("import", file, ...conn());
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Imported "Weather smoke \(copy\)" \(3 steps\)/);
    // The name is taken now: the CLI says which name would do, and --name imports under it.
    const again = await cli("import", file, ...conn());
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--name "Weather smoke \(copy\) \(2\)"/);
    const renamed = await cli("import", file, "--name", "Weather smoke (copy) (2)", ...conn());
    expect(renamed.code, renamed.stderr).toBe(0);
    const names = (await api("GET", "/api/v1/collections")).body.items.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(["Weather smoke", "Weather smoke (copy)", "Weather smoke (copy) (2)"]));
  });
});
