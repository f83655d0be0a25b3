import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSV_COLUMNS, curlSnippet, typescriptSnippet, type CallDto } from "@/lib/domains/calls";
import { parseCsv } from "../support/csv";
import { insertCalls } from "../support/seed-calls";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const HOSTILE = `it's "quoted", $(touch /tmp/sb-export-pwned) \`id\` \${HOME}\nsecond line\r\n\ttab ' ''`;

describe("exports and reproducible calls", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let token: string;
  let serverId: string;
  let otherServerId: string;
  const calls: CallDto[] = [];

  async function raw(route: string) {
    return fetch(`${sb.url}${route}`, { headers: { authorization: `Bearer ${token}` } });
  }

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    const created = await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, headers: { "X-Api-Key": "top-secret-value" } });
    serverId = created.body.server.id;
    otherServerId = (await api("POST", "/api/v1/servers", { name: "everything-2", url: everything.url })).body.server.id;
    const imported = await api("POST", "/api/v1/servers/import", {
      config: JSON.stringify({ mcpServers: { local: { command: "npx", args: ["-y", "some-server"], env: { API_KEY: "stdio-secret-value" } } } }),
    });
    expect(imported.body.created).toHaveLength(1);

    const requests: [string, unknown][] = [
      ["tools/call", { name: "echo", arguments: { message: "first" } }],
      ["tools/call", { name: "get-sum", arguments: { a: 2, b: 3 } }],
      ["tools/call", { name: "echo", arguments: { message: HOSTILE } }],
      ["resources/read", { uri: "demo://resource/static/document/architecture.md" }],
      ["prompts/get", { name: "simple-prompt" }],
      ["tools/call", { name: "echo", arguments: { message: "=cmd|' /C calc'!A0, with a comma" } }],
    ];
    for (const [method, body] of requests) {
      const res = await api("POST", `/api/v1/servers/${serverId}/${method}`, body);
      expect(res.status).toBe(200);
      calls.push(res.body.call);
    }
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("exports NDJSON with the list's filters, in the list's order, bodies included", async () => {
    const res = await raw(`/api/v1/calls/export?format=ndjson&method=tools/call&serverId=${serverId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="calls-\d{8}-\d{6}\.ndjson"$/);
    const lines = (await res.text()).split("\n");
    expect(lines.pop()).toBe("");
    const exported = lines.map((l) => JSON.parse(l) as CallDto);

    const list = await api("GET", `/api/v1/calls?method=tools/call&serverId=${serverId}&limit=200`);
    expect(exported.map((c) => c.id)).toEqual(list.body.items.map((c: CallDto) => c.id));
    expect(exported).toHaveLength(4);
    for (const call of exported) {
      expect(call).toEqual((await api("GET", `/api/v1/calls/${call.id}`)).body.call);
    }
  });

  it("fills the CSV's error column for a tool result marked isError with its text", async () => {
    const workspaceId = (await api("GET", "/api/v1/workspace")).body.workspace.id as string;
    const [id] = await insertCalls(sb.db, [{ workspaceId, serverId, startedAt: new Date(), durationMs: 4, name: "failing-tool" }]);
    const result = { content: [{ type: "text", text: "disk full" }, { type: "text", text: "try later" }], isError: true };
    await sb.db.batch([['UPDATE "call" SET is_error = ?, result = ? WHERE id = ?', sb.db.provider === "sqlite" ? 1 : true, JSON.stringify(result), id]]);
    const [header, ...rows] = parseCsv(await (await raw(`/api/v1/calls/export?format=csv&name=failing-tool`)).text());
    const record = Object.fromEntries(header!.map((col, i) => [col, rows[0]![i]]));
    expect(rows).toHaveLength(1);
    expect(record).toMatchObject({ id, status: "ok", error: "disk full\ntry later" });
  });

  it("exports CSV that a strict RFC 4180 reader takes back", async () => {
    const res = await raw(`/api/v1/calls/export?format=csv&name=echo`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="calls-.*\.csv"$/);
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual([...CSV_COLUMNS]);

    const list = (await api("GET", "/api/v1/calls?name=echo&limit=200")).body.items as CallDto[];
    expect(rows.map((r) => r[0])).toEqual(list.map((c) => c.id));
    const byId = new Map(calls.map((c) => [c.id, c]));
    for (const row of rows) {
      const record = Object.fromEntries(CSV_COLUMNS.map((col, i) => [col, row[i]]));
      const call = byId.get(record.id!)!;
      expect(record).toMatchObject({ startedAt: call.startedAt, server: "everything", method: "tools/call", name: "echo", status: "ok", user: "Ada Owner", origin: "user", error: "" });
      expect(Number(record.durationMs)).toBeCloseTo(call.durationMs!, 3);
      expect(JSON.parse(record.arguments!)).toEqual((call.params as { arguments: unknown }).arguments);
    }
  });

  it("streams ~2,000 rows written straight into the database completely and in order", async () => {
    const template = (await sb.db.get('SELECT * FROM "call" WHERE id = ?', calls[0]!.id))!;
    const base = Date.parse("2020-01-01T00:00:00.000Z");
    // On SQLite, the test helper writes Dates in the text form Prisma writes, so the rows are indistinguishable from recorded ones.
    if (sb.db.provider === "sqlite") expect(String(template.started_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const columns = Object.keys(template);
    const insert = `INSERT INTO "call" (${columns.map((c) => `"${c}"`).join(",")}) VALUES (${columns.map(() => "?").join(",")})`;
    const ids: string[] = [];
    const rows: [string, ...unknown[]][] = [];
    for (let i = 0; i < 2000; i++) {
      const id = `bulk-${String(i).padStart(5, "0")}`;
      ids.push(id);
      // Three rows share each millisecond, so the (startedAt, id) keyset has ties to break.
      const started = new Date(base + Math.floor(i / 3));
      rows.push([insert, ...columns.map((c) => (c === "id" ? id : c === "request_id" ? `req-${id}` : c === "started_at" ? started : c === "finished_at" ? started : c === "params" ? JSON.stringify({ name: "echo", arguments: { i } }) : template[c]))]);
    }
    await sb.db.batch(rows);

    const res = await raw(`/api/v1/calls/export?format=ndjson&to=2020-12-31T00:00:00.000Z`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    const exported = text.trim().split("\n").map((l) => JSON.parse(l) as CallDto);
    expect(chunks).toBeGreaterThan(1);
    expect(exported).toHaveLength(2000);
    expect(exported.map((c) => c.id)).toEqual([...ids].reverse());
    expect(exported.map((c) => (c.params as { arguments: { i: number } }).arguments.i)).toEqual(ids.map((_, i) => 1999 - i));
    expect(new Date(exported[0]!.startedAt).getTime()).toBe(base + Math.floor(1999 / 3));
  });

  it("exports the servers as an mcpServers file without secret values", async () => {
    const res = await raw("/api/v1/servers/export");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="mcp-servers.json"');
    const text = await res.text();
    expect(text).not.toContain("top-secret-value");
    expect(text).not.toContain("stdio-secret-value");
    const config = JSON.parse(text);
    expect(config.mcpServers.everything).toMatchObject({ url: everything.url, headers: { "X-Api-Key": "${X_API_KEY}" } });
    expect(config.mcpServers.local).toEqual({ command: "npx", args: ["-y", "some-server"], env: { API_KEY: "${API_KEY}" } });
    expect(Object.keys(config.mcpServers).sort()).toEqual(["everything", "everything-2", "local"]);
  });

  it("runs the curl snippet of a hostile call through bash and gets the same result", async () => {
    const source = (await api("GET", `/api/v1/calls/${calls[2]!.id}`)).body.call as CallDto;
    const { stdout } = await run("bash", ["-c", curlSnippet(source, sb.url)], { env: { NODE_ENV: "test", PATH: process.env.PATH, SWITCHBOARD_TOKEN: token } });
    const { call } = JSON.parse(stdout) as { call: CallDto };
    expect(call.id).not.toBe(source.id);
    expect(call.params).toEqual(source.params);
    expect(call.result).toEqual(source.result);
    expect(JSON.stringify(call.result)).toContain("second line");
    expect(fs.existsSync("/tmp/sb-export-pwned")).toBe(false);
  });

  it("runs the TypeScript snippet against the server directly and gets the same result", async () => {
    const source = (await api("GET", `/api/v1/calls/${calls[2]!.id}`)).body.call as CallDto;
    const server = (await api("GET", `/api/v1/servers/${serverId}`)).body.server;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-ts-snippet-"));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    fs.writeFileSync(path.join(dir, "snippet.mts"), typescriptSnippet(source, server));
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "snippet.mts"], {
        cwd: dir,
        env: { NODE_ENV: "test", PATH: process.env.PATH, X_API_KEY: "from-env" },
        timeout: 60_000,
      });
      expect((JSON.parse(stdout) as { content: unknown }).content).toEqual((source.result as { content: unknown }).content);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("records an edited run as a re-run of its source, from the same server only", async () => {
    const source = calls[0]!;
    const ok = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "edited" }, rerunOf: source.id });
    expect(ok.status).toBe(200);
    expect(ok.body.call.rerunOfId).toBe(source.id);
    expect(ok.body.call.params.arguments).toEqual({ message: "edited" });

    const elsewhere = await api("POST", `/api/v1/servers/${otherServerId}/tools/call`, { name: "echo", arguments: { message: "x" }, rerunOf: source.id });
    expect(elsewhere.status).toBe(422);
    const missing = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "x" }, rerunOf: "no-such-call" });
    expect(missing.status).toBe(422);
    const prompt = await api("POST", `/api/v1/servers/${serverId}/prompts/get`, { name: "simple-prompt", rerunOf: calls[4]!.id });
    expect(prompt.body.call.rerunOfId).toBe(calls[4]!.id);
  });

  it("refuses an unknown export format", async () => {
    const res = await raw("/api/v1/calls/export?format=xlsx");
    expect(res.status).toBe(400);
  });
});
