import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINT_RULES, type LintReport } from "@/lib/domains/quality";
import { serverRequestCapabilities } from "@/lib/mcp/handlers";
import { CLEAN, FAULTY } from "../fixtures/lint-definitions";
import { insertMember } from "../support/database";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { findAll, parseXml } from "../support/xml";

type Api = ReturnType<typeof apiClient>;
const ROOT = path.resolve(import.meta.dirname, "../..");
const count = (value: unknown) => countTokens(JSON.stringify(value), { disallowedSpecial: new Set() });
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");
const byName = <T extends { name: string }>(items: T[]) => [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The built CLI run as CI runs it: its own process, nothing but PATH in the environment. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, "cli/dist/cli.js"), ...args], { env: { PATH: process.env.PATH ?? "" } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("lint and token budget: GET /api/v1/servers/:id/lint and `switchboard lint`", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let faulty: RunningServer;
  let clean: RunningServer;
  let owner: Api;
  let viewer: Api;
  let token: string;
  const ids: Record<string, string> = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-lint-"));
  const lint = (api: Api, name: string, query = "") => api("GET", `/api/v1/servers/${ids[name]}/lint${query}`);
  const conn = () => ["--console", sb.url, "--token", token];

  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, "faulty.json"), JSON.stringify(FAULTY));
    fs.writeFileSync(path.join(dir, "clean.json"), JSON.stringify(CLEAN));
    [sb, everything, faulty, clean] = await Promise.all([
      startConsole(),
      startEverything("streamableHttp"),
      startFixture("drift-server.ts", { env: { DRIFT_CAPABILITIES: path.join(dir, "faulty.json") } }),
      startFixture("drift-server.ts", { env: { DRIFT_CAPABILITIES: path.join(dir, "clean.json") } }),
    ]);
    const o = await setupOwner(sb.url);
    owner = o.api;
    token = o.token;
    viewer = apiClient(sb.url, await insertMember(sb.db, { workspaceId: o.workspace.id, userId: "u-viewer", name: "viewer", email: "viewer@example.com", role: "viewer" }));
    for (const [name, url] of [["everything", everything.url], ["faulty", faulty.url], ["clean", clean.url], ["idle", clean.url]] as const) {
      const created = await owner("POST", "/api/v1/servers", { name, url, timeoutMs: 20_000 });
      expect(created.status).toBe(201);
      ids[name] = created.body.server.id;
    }
    for (const name of ["everything", "faulty", "clean"]) {
      expect((await owner("POST", `/api/v1/servers/${ids[name]}/connect`)).status).toBe(200);
      await waitFor(async () => (await lint(owner, name)).status === 200, 20_000);
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop(), faulty?.stop(), clean?.stop()]);
  });

  it("counts server-everything's tools as gpt-tokenizer counts the JSON an SDK client lists", async () => {
    // The console's capabilities: server-everything lists its sampling and elicitation tools only to clients that have them.
    const capabilities = { ...serverRequestCapabilities({ onServerRequest: async () => ({ result: {} }) }), extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
    const client = new Client({ name: "lint-test", version: "1" }, { capabilities });
    await client.connect(new StreamableHTTPClientTransport(new URL(everything.url)));
    const [tools, prompts, resources] = await Promise.all([client.listTools(), client.listPrompts(), client.listResources()]).finally(() => client.close());
    const report = (await lint(viewer, "everything")).body as LintReport;
    expect(report.tokens.tokenizer).toBe("o200k_base (gpt-tokenizer 4.0.0)");
    const listed = byName(tools.tools);
    expect(listed.length).toBeGreaterThan(5);
    expect(report.tokens.items.filter((i) => i.kind === "tool")).toEqual(listed.map((t) => ({ kind: "tool", name: t.name, tokens: count(t) })));
    // The snapshot keeps each list sorted by name (resources by URI); empty lists cost nothing.
    const lists = [listed, byName(prompts.prompts), [...resources.resources].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))];
    expect(report.tokens.total).toBe(lists.reduce((sum, list) => sum + (list.length ? count(list) : 0), 0));
    expect(report.history[0]).toEqual({ snapshotId: report.snapshotId, takenAt: report.takenAt, total: report.tokens.total });
    // The tools as the console's API lists them are the same objects.
    const apiTools = (await viewer("GET", `/api/v1/servers/${ids.everything}/tools`)).body.items as object[];
    expect(count(byName(apiTools as { name: string }[]))).toBe(count(listed));
  });

  it("finds every rule's seeded fault the SDK client lets through, and nothing on a clean server", async () => {
    const report = (await lint(viewer, "faulty")).body as LintReport;
    // A root inputSchema that is not an object fails the SDK client's listing: tests/unit/quality-lint.test.ts holds that rule.
    const expected = LINT_RULES.map((r) => r.id).filter((id) => id !== "input-schema-type");
    expect([...new Set(report.findings.map((f) => f.rule))].sort()).toEqual(expected.sort());
    expect(report.findings).toContainEqual(expect.objectContaining({ rule: "name-duplicate", severity: "error", item: "tool:twice" }));
    expect((await lint(viewer, "clean")).body).toMatchObject({ findings: [], history: [{ total: expect.any(Number) }] });
  });

  it("answers 404 for an unknown server or snapshot, 409 before the first connect, 400 for a bad query", async () => {
    const report = (await lint(viewer, "faulty")).body as LintReport;
    expect((await lint(viewer, "faulty", `?snapshotId=${report.snapshotId}`)).body.snapshotId).toBe(report.snapshotId);
    expect((await viewer("GET", "/api/v1/servers/nope/lint")).status).toBe(404);
    expect((await lint(viewer, "faulty", "?snapshotId=nope")).body.error).toMatchObject({ code: "not_found", message: "Snapshot not found" });
    // Another server's snapshot is not this server's.
    expect((await lint(viewer, "clean", `?snapshotId=${report.snapshotId}`)).status).toBe(404);
    const idle = await lint(viewer, "idle");
    expect(idle.status).toBe(409);
    expect(idle.body.error.message).toMatch(/no capability snapshot yet: connect it first/);
    expect((await lint(viewer, "faulty", `?snapshotId=${"x".repeat(101)}`)).status).toBe(400);
  });

  it("the CLI exits 1 past --max-tokens, 0 within a budget on a clean server, and writes JUnit with a failing case per error", async () => {
    const over = await cli(["lint", "clean", ...conn(), "--max-tokens", "10"]);
    expect(over.code).toBe(1);
    expect(over.stdout).toMatch(/Token budget exceeded: \d+ tokens > --max-tokens 10/);
    const within = await cli(["lint", ids.clean!, ...conn(), "--max-tokens", "100000"]);
    expect({ code: within.code, stderr: within.stderr }).toEqual({ code: 0, stderr: "" });
    expect(within.stdout).toMatch(/Token budget met: \d+ tokens ≤ --max-tokens 100000/);

    const file = path.join(dir, "lint.xml");
    const junit = await cli(["lint", "faulty", ...conn(), "--max-tokens", "100000", "--reporter", "junit", "-o", file]);
    expect(junit.code).toBe(1);
    const cases = findAll(parseXml(fs.readFileSync(file, "utf8")), "testcase");
    const failing = cases.filter((c) => c.children.some((x) => x.name === "failure")).map((c) => c.attributes.name);
    expect(failing).toContain("name-duplicate tool:twice");
    expect(failing).not.toContain("token budget");
    expect(cases.map((c) => c.attributes.name)).toContain("description-short tool:short");

    const unknown = await cli(["lint", "no-such-server", ...conn()]);
    expect({ code: unknown.code, stderr: unknown.stderr.trim() }).toEqual({ code: 2, stderr: 'switchboard: no server "no-such-server" in this workspace (give its exact name or its id)' });
  });

  it("a collection's lint assertion passes on the clean server, fails on the faulty one and past the budget, through the API and `switchboard run`", async () => {
    const total = ((await lint(viewer, "clean")).body as LintReport).tokens.total;
    const errors = ((await lint(viewer, "faulty")).body as LintReport).findings.filter((f) => f.severity === "error");
    const step = (server: string, assert: object) => ({ serverId: ids[server], method: "tools/list", assert: [assert] });
    const created = await owner("POST", "/api/v1/collections", {
      name: "Lint gate",
      steps: [step("clean", { kind: "lint", maxTokens: total, failOn: "warning" }), step("faulty", { kind: "lint", maxTokens: 100_000 }), step("clean", { kind: "lint", maxTokens: total - 1 })],
    });
    expect(created.status).toBe(201);
    const runId = (await owner("POST", `/api/v1/collections/${created.body.collection.id}/runs`, { stopOnFailure: false })).body.run.id;
    let run: { status: string; steps: { status: string; assertions: { passed: boolean; message: string }[] }[] } | undefined;
    await waitFor(async () => (run = (await owner("GET", `/api/v1/runs/${runId}`)).body.run).status !== "running", 30_000, () => JSON.stringify(run));
    expect(run!.status).toBe("failed");
    // The definitions listed at run time agree with the latest snapshot's lint, to the token.
    expect(run!.steps.map((s) => s.assertions[0])).toEqual([
      { kind: "lint", passed: true, message: `no lint errors or warnings; ${grouped(total)} tokens ≤ ${grouped(total)}` },
      { kind: "lint", passed: false, message: `${errors.length} lint errors: ${errors.slice(0, 3).map((f) => `${f.rule} ${f.item}`).join(", ")}, and ${errors.length - 3} more` },
      { kind: "lint", passed: false, message: `${grouped(total)} tokens > ${grouped(total - 1)}` },
    ]);
    expect(errors.map((f) => f.rule)).toContain("name-duplicate");

    const gate = await cli(["run", "Lint gate", ...conn()]);
    expect(gate.code, gate.stdout + gate.stderr).toBe(1);
    expect(gate.stdout).toContain(`${errors.length} lint errors: `);
    expect((await owner("POST", "/api/v1/collections", { name: "Bad budget", steps: [step("clean", { kind: "lint", maxTokens: -1 })] })).status).toBe(400);
  });
});
