import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { Client as SseClient } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMember } from "../support/database";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { freePort, startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI = path.join(ROOT, "cli/dist/cli.js");
const INSPECTOR_CLI = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build/cli.js");
const DOC = "demo://resource/static/document/architecture.md";

function run(args: string[], cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

// Mock servers made from history of server-everything: served at /mcp/<slug>/mock/<name> to SDK
// clients of both eras and the Inspector CLI, and by the CLI without a console (stdio and HTTP).
describe("mock servers", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let slug: string;
  let token: string;
  let ownerToken: string;
  let workspaceId: string;
  let serverId: string;
  const calls: Record<string, any> = {};
  const open: Client[] = [];
  const children: ChildProcess[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-mocks-"));

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    slug = owner.workspace.slug;
    ownerToken = owner.token;
    workspaceId = owner.workspace.id;
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    token = (await api("POST", "/api/v1/tokens", { name: "mocks", scopes: ["gateway"] })).body.secret;
    const tool = (name: string, args: Record<string, unknown>) => api("POST", `/api/v1/servers/${serverId}/tools/call`, { name, arguments: args });
    calls.hello = (await tool("echo", { message: "hello" })).body.call;
    calls.world = (await tool("echo", { message: "world" })).body.call;
    calls.sum = (await tool("get-sum", { a: 1, b: 2 })).body.call;
    calls.doc = (await api("POST", `/api/v1/servers/${serverId}/resources/read`, { uri: DOC })).body.call;
    calls.prompt = (await api("POST", `/api/v1/servers/${serverId}/prompts/get`, { name: "args-prompt", arguments: { city: "Paris" } })).body.call;
    for (const call of Object.values(calls)) expect(call.status).toBe("ok");
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    for (const child of children) child.kill("SIGTERM");
    await sb?.stop();
    await everything?.stop();
  });

  const endpoint = (name: string) => `${sb.url}/mcp/${encodeURIComponent(slug)}/mock/${encodeURIComponent(name)}`;
  const host = async (name: string, era: "modern" | "legacy" = "modern", as = token) => {
    const client = await gatewayHost(endpoint(name), as, { era, name: `mock-host-${era}` });
    open.push(client);
    return client;
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await api("POST", "/api/v1/mocks", body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.mock;
  };
  const byName = (items: { name: string }[]) => [...items].sort((a, b) => a.name.localeCompare(b.name));
  // A modern-era server names itself in each result's _meta (the mock as the server it stands for) and
  // the SDK gives a read its caching defaults (ttlMs, cacheScope): the era's envelope, not the recording.
  const bare = (result: any) => {
    const { "io.modelcontextprotocol/serverInfo": _info, ...meta } = result?._meta ?? {};
    const { _meta, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
    return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
  };

  it("makes a mock from calls and answers SDK clients of both eras exactly as recorded", async () => {
    const mock = await create({ name: "everything-v1", callIds: [calls.hello.id, calls.sum.id, calls.doc.id, calls.prompt.id], match: "exact" });
    expect(mock).toMatchObject({ name: "everything-v1", calls: 4, serverId, endpoint: `/mcp/${slug}/mock/everything-v1`, match: "exact", skipped: 0 });
    const listed = async (kind: string) => byName((await api("GET", `/api/v1/servers/${serverId}/${kind}`)).body.items);
    for (const era of ["modern", "legacy"] as const) {
      const client = await host("everything-v1", era);
      expect(client.getServerVersion()).toMatchObject({ name: "mcp-servers/everything" });
      // The modern era's Tool has no `execution` (tasks are an extension there): the SDK leaves it out of the list.
      const tools = (await listed("tools")).map(({ execution, ...tool }: any) => (era === "modern" ? tool : { execution, ...tool }));
      expect(byName((await client.listTools()).tools)).toEqual(tools);
      expect(byName((await client.listPrompts()).prompts)).toEqual(await listed("prompts"));
      expect(byName((await client.listResources()).resources as never)).toEqual(await listed("resources"));
      expect(bare(await client.callTool({ name: "echo", arguments: { message: "hello" } }))).toEqual(calls.hello.result);
      expect(bare(await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } }))).toEqual(calls.sum.result);
      expect(bare(await client.readResource({ uri: DOC }))).toEqual(calls.doc.result);
      expect(bare(await client.getPrompt({ name: "args-prompt", arguments: { city: "Paris" } }))).toEqual(calls.prompt.result);
      // Unrecorded: other arguments, a tool never called, an unknown tool, an unread resource.
      await expect(client.callTool({ name: "echo", arguments: { message: "world" } })).rejects.toThrow(/No recorded call of tool "echo" matches these arguments/);
      await expect(client.callTool({ name: "get-env", arguments: {} })).rejects.toThrow(/tool "get-env": this mock lists it but holds no recording/);
      await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool "no_such_tool"/);
      await expect(client.readResource({ uri: "demo://nothing" })).rejects.toThrow(/Resource not found/);
    }
  });

  it("answers a legacy HTTP+SSE host (the TS SDK 1.x transport) as recorded", async () => {
    const client = new SseClient({ name: "sse-mock-host", version: "1.0.0" });
    await client.connect(new SSEClientTransport(new URL(endpoint("everything-v1")), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      expect(await client.callTool({ name: "echo", arguments: { message: "hello" } })).toEqual(calls.hello.result);
      await expect(client.callTool({ name: "echo", arguments: { message: "nope" } })).rejects.toThrow(/No recorded call of tool "echo"/);
    } finally {
      await client.close();
    }
  });

  it("records the mock's calls in history (origin mock, against its server), answers and misses alike", async () => {
    let items: any[] = [];
    await waitFor(async () => {
      items = (await api("GET", `/api/v1/calls?origin=mock&serverId=${serverId}&limit=100`)).body.items;
      return items.filter((c) => c.status !== "pending").length >= 18;
    });
    expect(items.every((c) => c.origin === "mock" && c.serverId === serverId)).toBe(true);
    // A modern host names itself on every request; a legacy one only in its initialize (stateless here, so not known at the call).
    const hello = items.find((c) => c.name === "echo" && c.status === "ok" && c.client);
    expect((await api("GET", `/api/v1/calls/${hello.id}`)).body.call).toMatchObject({ params: { name: "echo", arguments: { message: "hello" } }, result: calls.hello.result, client: "mock-host-modern 2.0.0" });
    const miss = items.find((c) => c.name === "no_such_tool");
    expect(miss).toMatchObject({ status: "error" });
    // People's history leaves automatic work out.
    expect((await api("GET", `/api/v1/calls?serverId=${serverId}&limit=100`)).body.items.some((c: any) => c.origin === "mock")).toBe(false);
  });

  it("makes mocks from a filter and a session; closest mode and ignore pointers match other arguments", async () => {
    const echoes = await create({ name: "echoes", filter: { serverId, method: "tools/call", name: "echo" }, match: "closest" });
    expect(echoes.calls).toBe(2);
    expect((await api("GET", `/api/v1/mocks/${echoes.id}`)).body.mock.recordings.map((r: any) => r.arguments.message)).toEqual(["hello", "world"]);
    const closest = await host("echoes");
    expect(bare(await closest.callTool({ name: "echo", arguments: { message: "world", extra: 1 } }))).toEqual(calls.world.result);
    await expect(closest.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).rejects.toThrow(/holds no recording/);

    await create({ name: "ignoring", callIds: [calls.hello.id], ignore: ["/message"] });
    expect(bare(await (await host("ignoring")).callTool({ name: "echo", arguments: { message: "anything" } }))).toEqual(calls.hello.result);

    const session = await create({ name: "session", sessionId: calls.hello.sessionId });
    expect(session.calls).toBe(5);
  });

  it("makes a mock from a collection run's calls", async () => {
    const step = (message: string) => ({ serverId, method: "tools/call", name: "echo", arguments: { message } });
    const collection = (await api("POST", "/api/v1/collections", { name: "smoke", steps: [step("one"), step("two")] })).body.collection;
    const runId = (await api("POST", `/api/v1/collections/${collection.id}/runs`, {})).body.run.id;
    await waitFor(async () => (await api("GET", `/api/v1/runs/${runId}`)).body.run.status !== "running");
    const mock = await create({ name: "from-run", runId });
    expect(mock.recordings.map((r: any) => r.arguments.message)).toEqual(["one", "two"]);
    const client = await host("from-run");
    expect((await client.callTool({ name: "echo", arguments: { message: "two" } })).content).toEqual([{ type: "text", text: "Echo: two" }]);
  });

  it("refuses a selection of two servers, a bad pointer, an odd name, a taken name, and too large a body", async () => {
    const twin = (await api("POST", "/api/v1/servers", { name: "twin", url: everything.url })).body.server.id;
    const other = (await api("POST", `/api/v1/servers/${twin}/tools/call`, { name: "echo", arguments: { message: "twin" } })).body.call;
    const mixed = await api("POST", "/api/v1/mocks", { name: "mixed", callIds: [calls.hello.id, other.id] });
    expect(mixed.status).toBe(422);
    expect(mixed.body.error.message).toMatch(/of 2 servers .*a mock stands for one server/);
    expect((await api("POST", "/api/v1/mocks", { name: "x", callIds: [calls.hello.id], ignore: ["no-slash"] })).status).toBe(400);
    expect((await api("POST", "/api/v1/mocks", { name: "x", callIds: [calls.hello.id], ignore: ["/a~2"] })).status).toBe(400);
    for (const name of ["a/b", "..", "line\nbreak", "(a+)+$", "x".repeat(101)]) expect((await api("POST", "/api/v1/mocks", { name, callIds: [calls.hello.id] })).status).toBe(400);
    expect((await api("POST", "/api/v1/mocks", { name: "everything-v1", callIds: [calls.hello.id] })).status).toBe(409);
    expect((await api("POST", "/api/v1/mocks", { name: "x", callIds: ["nope"] })).status).toBe(404);
    expect((await api("POST", "/api/v1/mocks", { name: "x", runId: "nope" })).status).toBe(404);
    expect((await api("POST", "/api/v1/mocks", { name: "x", callIds: [calls.hello.id], runId: "r" })).status).toBe(400);
    const huge = await api("POST", "/api/v1/mocks", { name: "x", callIds: Array.from({ length: 200_000 }, (_, i) => `call-${i}`) });
    expect([400, 413]).toContain(huge.status);
    expect((await api("POST", "/api/v1/mocks", { name: "x", callIds: Array.from({ length: 1001 }, (_, i) => `c${i}`) })).status).toBe(400);
  });

  it("changes and deletes a mock; its endpoint follows at once", async () => {
    const mock = await create({ name: "changing", callIds: [calls.hello.id] });
    const client = await host("changing");
    await expect(client.callTool({ name: "echo", arguments: { message: "close" } })).rejects.toThrow(/No recorded call/);
    const patched = await api("PATCH", `/api/v1/mocks/${mock.id}`, { match: "closest", name: "changed" });
    expect(patched.body.mock).toMatchObject({ match: "closest", name: "changed", endpoint: `/mcp/${slug}/mock/changed` });
    expect(bare(await (await host("changed")).callTool({ name: "echo", arguments: { message: "close" } }))).toEqual(calls.hello.result);
    expect((await api("PATCH", `/api/v1/mocks/${mock.id}`, { ignore: ["bad"] })).status).toBe(400);
    expect((await api("DELETE", `/api/v1/mocks/${mock.id}`)).status).toBe(204);
    const gone = await fetch(endpoint("changed"), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: "{}" });
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.code).toBe("not_found");
    const audit = (await api("GET", "/api/v1/audit?limit=100")).body.items.map((e: any) => e.action);
    expect(audit).toEqual(expect.arrayContaining(["mock.created", "mock.updated", "mock.deleted"]));
  });

  it("keeps mocks to their workspace and refuses a viewer's calls", async () => {
    const mine = (await api("GET", "/api/v1/mocks")).body.items.find((m: any) => m.name === "everything-v1");
    const cookie = await sessionCookie(sb.url, "ada@example.com", "correct horse battery");
    const other = (await apiClient(sb.url)("POST", "/api/v1/workspaces", { name: "Other team" }, { cookie })).body.workspace;
    const theirs = apiClient(sb.url);
    const foreign = (await theirs("POST", "/api/v1/tokens", { name: "other", scopes: ["gateway"] }, { cookie, "x-workspace-id": other.id })).body.secret;
    const theirApi = apiClient(sb.url, (await theirs("POST", "/api/v1/tokens", { name: "other api" }, { cookie, "x-workspace-id": other.id })).body.secret);
    for (const [method, route] of [["GET", `/api/v1/mocks/${mine.id}`], ["PATCH", `/api/v1/mocks/${mine.id}`], ["DELETE", `/api/v1/mocks/${mine.id}`], ["GET", `/api/v1/mocks/${mine.id}/export`]] as const) {
      expect((await theirApi(method, route, method === "PATCH" ? { latency: true } : undefined)).status).toBe(404);
    }
    const post = (auth: string, url = endpoint("everything-v1")) =>
      fetch(url, { method: "POST", headers: { authorization: `Bearer ${auth}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) });
    expect((await post(foreign)).status).toBe(401);
    expect((await fetch(endpoint("everything-v1"), { method: "POST", body: "{}" })).status).toBe(401);
    const unknown = await post(token, endpoint("no-such-mock"));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toMatch(/No mock named "no-such-mock"/);
    expect((await post(token, `${sb.url}/mcp/${slug}/mock/%2E%2E`)).status).toBeGreaterThanOrEqual(400);
    const huge = await fetch(endpoint("everything-v1"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "x".repeat(5 * 1024 * 1024) } } }),
    });
    expect(huge.status).toBe(413);
    const notJson = await fetch(endpoint("everything-v1"), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe(-32700);

    const viewerApi = apiClient(sb.url, await insertMember(sb.db, { workspaceId, userId: "viewer-1", name: "A viewer", email: "viewer@example.com", role: "viewer" }));
    const viewerToken = (await viewerApi("POST", "/api/v1/tokens", { name: "viewer gateway", scopes: ["gateway"] })).body.secret;
    expect((await viewerApi("GET", "/api/v1/mocks")).body.items.length).toBeGreaterThan(0);
    expect((await viewerApi("POST", "/api/v1/mocks", { name: "v", callIds: [calls.hello.id] })).status).toBe(403);
    const viewer = await host("everything-v1", "modern", viewerToken);
    expect((await viewer.listTools()).tools.length).toBeGreaterThan(0);
    await expect(viewer.callTool({ name: "echo", arguments: { message: "hello" } })).rejects.toThrow(/Viewers cannot call tools/);
  });

  it("exports the file the CLI serves over stdio and HTTP, and the Inspector CLI gets the recorded answer", async () => {
    const mock = (await api("GET", "/api/v1/mocks")).body.items.find((m: any) => m.name === "everything-v1");
    const res = await fetch(`${sb.url}/api/v1/mocks/${mock.id}/export`, { headers: { authorization: `Bearer ${ownerToken}` } });
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="everything-v1.mock.json"');
    const file = await res.json();
    expect(file).toMatchObject({ format: "switchboard-mock/1", name: "everything-v1", match: "exact", source: { serverId, serverName: "everything" } });
    expect(file.recordings).toHaveLength(4);
    const saved = path.join(tmp, "everything.mock.json");
    fs.writeFileSync(saved, JSON.stringify(file));

    const stdio = new Client({ name: "stdio-host", version: "1" });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mock", "serve", saved, "--stdio"], stderr: "pipe" }));
    open.push(stdio);
    expect(bare(await stdio.callTool({ name: "echo", arguments: { message: "hello" } }))).toEqual(calls.hello.result);
    expect(bare(await stdio.readResource({ uri: DOC }))).toEqual(calls.doc.result);
    await expect(stdio.callTool({ name: "echo", arguments: { message: "world" } })).rejects.toThrow(/No recorded call of tool "echo"/);

    const port = await freePort();
    const child = spawn(process.execPath, [CLI, "mock", "serve", saved, "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let said = "";
    child.stdout.on("data", (d) => (said += d));
    await waitFor(() => said.includes(`http://127.0.0.1:${port}/mcp`));
    for (const era of ["modern", "legacy"] as const) {
      const http = await gatewayHost(`http://127.0.0.1:${port}/mcp`, "unused", { era });
      open.push(http);
      expect(byName((await http.listTools()).tools).map((t) => t.name)).toContain("echo");
      expect(bare(await http.getPrompt({ name: "args-prompt", arguments: { city: "Paris" } }))).toEqual(calls.prompt.result);
    }

    const inspector = (...args: string[]) => run([INSPECTOR_CLI, "--cli", endpoint("everything-v1"), "--transport", "http", "--header", `Authorization: Bearer ${token}`, ...args], path.dirname(INSPECTOR_CLI));
    const called = await inspector("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello");
    expect(called.code, called.stderr).toBe(0);
    expect(bare(JSON.parse(called.stdout))).toEqual(calls.hello.result);
    const missed = await inspector("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=other");
    expect(`${missed.stdout}${missed.stderr}`).toMatch(/No recorded call of tool "echo"/);
  });
});
