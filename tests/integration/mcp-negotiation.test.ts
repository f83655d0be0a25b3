import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { freePort, scrubbedEnv } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** How the fixture answers `server/discover`; "both" also refuses `initialize`. */
type Mode = "500" | "html" | "silent" | "both";

/**
 * A legacy server (an SDK McpServer, stateless) behind a front door that answers the
 * `server/discover` probe badly, the way real servers do (git-mcp-server 2.15.3 answers HTTP 500).
 */
async function startHostileProbeServer() {
  const legacy = createMcpHandler(() => {
    const server = new McpServer({ name: "probe-hater", version: "1.0.0" });
    server.registerTool("echo", { description: "Echoes", inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
      content: [{ type: "text", text: `Echo: ${message}` }],
    }));
    return server;
  });
  const state = { mode: "500" as Mode, discovers: 0, initializes: 0 };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = body ? (JSON.parse(body) as { method?: string }).method : undefined;
    if (method === "server/discover") {
      state.discovers++;
      if (state.mode === "silent") return; // never answers; the socket stays open until the client gives up
      if (state.mode === "html") {
        res.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>Welcome to nginx!</h1></body></html>");
        return;
      }
      res.writeHead(500, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Error in httpTransport: "},"id":null}');
      return;
    }
    if (method === "initialize") {
      state.initializes++;
      if (state.mode === "both") {
        res.writeHead(503, { "content-type": "text/plain" }).end("down for maintenance");
        return;
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    const response = await legacy.fetch(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    state,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("protocol negotiation against servers that fail the server/discover probe", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let hostile: Awaited<ReturnType<typeof startHostileProbeServer>>;

  beforeAll(async () => {
    [sb, hostile] = await Promise.all([startConsole(), startHostileProbeServer()]);
    ({ api } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), hostile?.stop()]);
  });

  async function addServer(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api("POST", "/api/v1/servers", { name, url: hostile.url, timeoutMs: 15_000, ...extra });
    expect(res.status).toBe(201);
    return res.body.server.id as string;
  }

  it("connects with initialize when the probe answers HTTP 500, and says so", async () => {
    hostile.state.mode = "500";
    const id = await addServer("probe-500");
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server.protocolEra).toBe("auto");
    const res = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({
      status: "connected",
      era: "legacy",
      transport: "streamable-http",
      negotiation: "fallback",
      negotiationNote: "server/discover answered HTTP 500 Internal Server Error; connected with initialize",
      serverInfo: { name: "probe-hater" },
    });
    const echo = await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "echo", arguments: { message: "after the fallback" } });
    expect(echo.body.call.status).toBe("ok");
    // The era found is remembered: the next session skips the probe.
    const discovers = hostile.state.discovers;
    const again = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(again.body.session).toMatchObject({ status: "connected", negotiation: "remembered", negotiationNote: null });
    expect(hostile.state.discovers).toBe(discovers);
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server.session.negotiation).toBe("remembered");
  });

  it("falls back when the probe gets a 200 HTML page", async () => {
    hostile.state.mode = "html";
    const id = await addServer("probe-html");
    const res = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(res.status).toBe(200);
    expect(res.body.session.negotiation).toBe("fallback");
    expect(res.body.session.negotiationNote).toMatch(/^server\/discover answered with something other than JSON-RPC \(content type text\/html\); connected with initialize$/);
  });

  it("falls back when the probe goes unanswered, within the probe budget (a third of the timeout, at most 5 s)", async () => {
    hostile.state.mode = "silent";
    const id = await addServer("probe-silent", { timeoutMs: 6000 });
    const started = Date.now();
    const res = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(6000);
    expect(res.body.session).toMatchObject({
      status: "connected",
      negotiation: "fallback",
      negotiationNote: "server/discover went unanswered for 2000 ms; connected with initialize",
    });
  });

  it("protocolEra legacy never probes; modern probes only and reports the probe's error", async () => {
    hostile.state.mode = "500";
    const id = await addServer("era-setting", { protocolEra: "legacy" });
    const discovers = hostile.state.discovers;
    const initializes = hostile.state.initializes;
    const legacy = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(legacy.status).toBe(200);
    expect(legacy.body.session).toMatchObject({ era: "legacy", negotiation: "initialize", negotiationNote: null });
    expect(hostile.state.discovers).toBe(discovers);
    expect(hostile.state.initializes).toBe(initializes + 1);

    const patched = await api("PATCH", `/api/v1/servers/${id}`, { protocolEra: "modern" });
    expect(patched.status).toBe(200);
    expect(patched.body.server.protocolEra).toBe("modern");
    const modern = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(modern.status).toBe(502);
    expect(modern.body.error.message).toBe("server/discover failed: HTTP 500 Internal Server Error");
    expect(modern.body.error.details).toMatchObject({ kind: "http", status: 500 });
    expect(hostile.state.discovers).toBe(discovers + 1);
    expect(hostile.state.initializes).toBe(initializes + 1);

    expect((await api("PATCH", `/api/v1/servers/${id}`, { protocolEra: "sometimes" })).status).toBe(400);
    expect((await api("POST", "/api/v1/servers", { name: "bad-era", url: hostile.url, protocolEra: "future" })).status).toBe(400);
  });

  it("names both attempts when the probe and initialize both fail", async () => {
    hostile.state.mode = "both";
    const id = await addServer("both-fail", { transport: "streamable-http" });
    const res = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(res.status).toBe(502);
    // (A server at a loopback address never has its answers quoted.)
    expect(res.body.error.message).toBe("server/discover answered HTTP 500 Internal Server Error; initialize then failed: HTTP 503 Service Unavailable");
    expect(res.body.error.details).toMatchObject({ kind: "http", status: 503 });
    const server = (await api("GET", `/api/v1/servers/${id}`)).body.server;
    expect(server.status).toBe("error");
    expect(server.session.error).toMatch(/initialize then failed/);
  });
});

describe("@cyanheads/git-mcp-server 2.15.3 over Streamable HTTP (answers server/discover with HTTP 500)", () => {
  const ROOT = path.resolve(import.meta.dirname, "../..");
  let sb: ConsoleHandle;
  let api: Api;
  let git: ChildProcess;
  let gitUrl: string;
  let output = "";
  // The server runs in a scratch folder (it may write logs where it starts); the repo is inside.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sb-git-mcp-"));
  const repo = path.join(scratch, "repo");

  beforeAll(async () => {
    execFileSync("git", ["init", "-q", repo]);
    fs.writeFileSync(path.join(repo, "untracked.txt"), "hello\n");
    const port = await freePort();
    gitUrl = `http://127.0.0.1:${port}/mcp`;
    git = spawn(process.execPath, [path.join(ROOT, "node_modules/@cyanheads/git-mcp-server/dist/index.js")], {
      env: scrubbedEnv(port, { MCP_TRANSPORT_TYPE: "http", MCP_HTTP_PORT: String(port), MCP_HTTP_HOST: "127.0.0.1", GIT_BASE_DIR: repo, MCP_LOG_LEVEL: "warning" }),
      cwd: scratch,
      stdio: ["ignore", "pipe", "pipe"],
    });
    git.stdout?.on("data", (c) => (output += c));
    git.stderr?.on("data", (c) => (output += c));
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
    await waitFor(
      () => fetch(gitUrl, { method: "GET" }).then(() => true, () => false),
      30_000,
      () => output,
    );
  });
  afterAll(async () => {
    git?.kill("SIGTERM");
    await sb?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("connects through the console's API, lists its tools and calls git_status, recorded in history", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "git", url: gitUrl, timeoutMs: 30_000 });
    expect(created.status).toBe(201);
    const id = created.body.server.id as string;
    const connect = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(connect.status, JSON.stringify(connect.body)).toBe(200);
    expect(connect.body.session).toMatchObject({ status: "connected", era: "legacy", negotiation: "fallback", serverInfo: { name: expect.stringMatching(/git/) } });
    expect(connect.body.session.negotiationNote).toMatch(/^server\/discover answered HTTP 500 Internal Server Error; connected with initialize$/);

    const tools = (await api("GET", `/api/v1/servers/${id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toContain("git_status");
    const status = await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "git_status", arguments: { path: repo } });
    expect(status.status).toBe(200);
    expect(status.body.call.status).toBe("ok");
    expect(JSON.stringify(status.body.call.result)).toContain("untracked.txt");

    const history = (await api("GET", `/api/v1/calls?serverId=${id}&name=git_status`)).body.items;
    expect(history).toHaveLength(1);
    expect(history[0].id).toBe(status.body.call.id);
  });
});
