import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConnectionConfig, type McpConnection, McpError, openConnection } from "@/lib/mcp/server";
import { freePort, type RunningServer, startFixture } from "../support/servers";

interface LogEntry {
  httpMethod: string;
  path: string;
  rpcMethod?: string;
  rpcId?: unknown;
  sessionId?: string;
  headers: Record<string, string>;
}

let hostile: RunningServer;
const open: McpConnection[] = [];
const url = (mode: string) => `${hostile.baseUrl}/${mode}`;

async function connect(target: string, extra: Partial<ConnectionConfig> = {}) {
  const connection = await openConnection({ url: target, transport: "auto", headers: {}, timeoutMs: 5000, ...extra });
  open.push(connection);
  return connection;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

async function serverLog(): Promise<LogEntry[]> {
  return (await fetch(`${hostile.baseUrl}/_log`)).json() as Promise<LogEntry[]>;
}

/** Polls the fixture's request log until an entry matches (deadline, not a fixed sleep). */
async function seen(match: (entry: LogEntry) => boolean): Promise<LogEntry> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const entry = (await serverLog()).find(match);
    if (entry) return entry;
    if (Date.now() > deadline) throw new Error("Expected request never reached the fixture");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  hostile = await startFixture("hostile-server.ts");
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await hostile?.stop();
});

describe("against a valid fixture", () => {
  it("merges every page of every list", async () => {
    const conn = await connect(url("ok"));
    expect(((await conn.list("tools")) as Array<{ name: string }>).map((t) => t.name)).toEqual([
      "echo",
      "add",
      "fail",
      "bad-output",
      "notify-tools-changed",
    ]);
    expect(await conn.list("resources")).toHaveLength(5);
    expect(await conn.list("resource-templates")).toHaveLength(1);
    expect(await conn.list("prompts")).toHaveLength(1);
    const sid = conn.info.remoteSessionId;
    expect((await serverLog()).filter((e) => e.sessionId === sid && e.rpcMethod === "resources/list")).toHaveLength(3);
  });

  it("sends custom headers on every request and skips the probe for a legacy era hint", async () => {
    const denied = await rejection(connect(url("keyed")));
    expect(denied.kind).toBe("unauthorized");

    await fetch(`${hostile.baseUrl}/_log`, { method: "DELETE" });
    const conn = await connect(url("keyed"), { headers: { "X-Api-Key": "letmein" }, eraHint: "legacy" });
    await conn.request("tools/call", { name: "echo", arguments: { message: "hi" } });
    await conn.close();
    const entries = (await serverLog()).filter((e) => e.path === "/keyed");
    const seenMethods = entries.map((e) => e.rpcMethod ?? e.httpMethod);
    expect(seenMethods.slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
    expect(seenMethods.at(-1)).toBe("DELETE");
    // GET is the SDK opening its standalone SSE stream (this fixture answers 405).
    expect(new Set(seenMethods)).toEqual(new Set(["initialize", "notifications/initialized", "GET", "tools/call", "DELETE"]));
    for (const entry of entries) expect(entry.headers["x-api-key"]).toBe("letmein");

    // The legacy transport's SSE GET carries them too (this fixture then refuses the stream).
    await fetch(`${hostile.baseUrl}/_log`, { method: "DELETE" });
    const err = await rejection(connect(url("keyed"), { transport: "sse", headers: { "X-Api-Key": "letmein" } }));
    expect(err).toMatchObject({ kind: "http", status: 405 });
    const [get] = (await serverLog()).filter((e) => e.path === "/keyed");
    expect(get).toMatchObject({ httpMethod: "GET", headers: { "x-api-key": "letmein", accept: "text/event-stream" } });
  });

  it("caches tools/list until the server announces a change", async () => {
    let heard: (kind: string) => void = () => {};
    const changed = new Promise<string>((resolve) => (heard = resolve));
    const conn = await connect(url("ok"), { onListChanged: (kind) => heard(kind) });
    const first = await conn.tools();
    expect(await conn.tools()).toBe(first);
    const sid = conn.info.remoteSessionId;
    expect((await serverLog()).filter((e) => e.sessionId === sid && e.rpcMethod === "tools/list")).toHaveLength(3);

    await conn.request("tools/call", { name: "notify-tools-changed", arguments: {} });
    expect(await changed).toBe("tools");
    expect((await conn.tools()).map((t) => t.name)).toContain("extra");
  });

  it("opens one fresh session for concurrent requests after a 404 and retries them", async () => {
    const conn = await connect(url("ok"), { transport: "streamable-http" });
    const before = conn.info.remoteSessionId;
    await fetch(`${hostile.baseUrl}/_forget`, { method: "POST" });
    const mark = (await serverLog()).length;
    const results = await Promise.all(
      ["a", "b", "c"].map((message) => conn.request("tools/call", { name: "echo", arguments: { message } })),
    );
    expect(results.map((r) => (r.content as Array<{ text: string }>)[0]!.text)).toEqual(["Echo: a", "Echo: b", "Echo: c"]);
    expect(conn.info.remoteSessionId).not.toBe(before);
    const after = (await serverLog()).slice(mark);
    expect(after.filter((e) => e.rpcMethod === "initialize")).toHaveLength(1);
    expect(after.filter((e) => e.rpcMethod === "tools/call" && e.sessionId === before)).toHaveLength(3);
  });

  it("returns raw results: isError stays a result, outputSchema is not enforced", async () => {
    const conn = await connect(url("ok"));
    expect((await conn.request("tools/call", { name: "fail", arguments: {} })).isError).toBe(true);
    await conn.tools(); // the SDK validates against outputSchemas it has listed; we must not
    const bad = await conn.request("tools/call", { name: "bad-output", arguments: {} });
    expect(bad.structuredContent).toEqual({ n: "not a number" });
  });

  it("reports unknown tools as protocol errors", async () => {
    const conn = await connect(url("ok"));
    const err = await rejection(conn.request("tools/call", { name: "nope", arguments: {} }));
    expect(err).toMatchObject({ kind: "protocol", code: -32602 });
    expect(err.message).toContain("Unknown tool: nope");
  });

  it("sends notifications/cancelled when a request is aborted", async () => {
    const conn = await connect(url("silent"));
    const controller = new AbortController();
    const pending = conn.request("tools/call", { name: "echo", arguments: { message: "x" } }, { signal: controller.signal });
    const call = await seen((e) => e.path === "/silent" && e.rpcMethod === "tools/call");
    controller.abort();
    expect((await rejection(pending)).kind).toBe("cancelled");
    await seen((e) => e.rpcMethod === "notifications/cancelled" && e.sessionId === call.sessionId);
  });

  it("passes a ~10 MB result through whole", async () => {
    const conn = await connect(url("huge"));
    const result = await conn.request("tools/call", { name: "huge", arguments: {} });
    expect((result.content as Array<{ text: string }>)[0]!.text.length).toBeGreaterThan(10_000_000);
  });

  it("passes XSS payloads through untouched, as data", async () => {
    const conn = await connect(url("xss"));
    const tools = (await conn.list("tools")) as Array<{ name: string; title?: string; description?: string }>;
    expect(tools.find((t) => t.name === "xss-title")).toMatchObject({ title: "<script>alert(1)</script>" });
    const result = await conn.request("tools/call", { name: "xss", arguments: {} });
    expect(result.content).toEqual([
      expect.objectContaining({ type: "text", text: expect.stringContaining("onerror=alert(1)") }),
      expect.objectContaining({ type: "resource_link", uri: "javascript:alert(1)" }),
    ]);
  });
});

describe("hostile answers become explained McpErrors", () => {
  it("malformed JSON body → protocol error, and the connection stays usable", async () => {
    const conn = await connect(url("malformed"));
    const err = await rejection(conn.request("tools/call", { name: "echo", arguments: {} }));
    expect(err).toMatchObject({ kind: "protocol", code: -32700 });
    expect(err.message).toMatch(/^Server sent malformed JSON/);
    await conn.ping();
  });

  it("malformed SSE event → protocol error without waiting for the timeout", async () => {
    const conn = await connect(url("malformed-sse"), { timeoutMs: 20_000 });
    const started = Date.now();
    const err = await rejection(conn.request("tools/call", { name: "echo", arguments: {} }));
    expect(err).toMatchObject({ kind: "protocol", code: -32700 });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("silence → timeout", async () => {
    const conn = await connect(url("silent"));
    const err = await rejection(conn.request("tools/call", { name: "echo", arguments: {} }, { timeoutMs: 400 }));
    expect(err).toMatchObject({ kind: "timeout", message: "Request timed out after 400 ms" });
  });

  it("socket destroyed mid-response → closed", async () => {
    const conn = await connect(url("crash"));
    const err = await rejection(conn.request("tools/call", { name: "echo", arguments: {} }));
    expect(err.kind).toBe("closed");
  });

  it("text/html → content_type at connect", async () => {
    const err = await rejection(connect(url("html")));
    expect(err.kind).toBe("content_type");
    expect(err.message).toContain("text/html");
  });

  it("401 → unauthorized with WWW-Authenticate", async () => {
    const err = await rejection(connect(url("unauthorized")));
    expect(err).toMatchObject({
      kind: "unauthorized",
      status: 401,
      wwwAuthenticate: 'Bearer realm="hostile-fixture", error="invalid_token"',
      bodyExcerpt: "Missing or invalid credentials",
    });
    expect(err.message).toContain('HTTP 401 Unauthorized — WWW-Authenticate: Bearer realm="hostile-fixture"');
  });

  it("404 on both transports → http error naming both attempts", async () => {
    const err = await rejection(connect(url("no-such-mode")));
    expect(err).toMatchObject({ kind: "http", status: 404 });
    expect(err.message).toContain("HTTP+SSE");
  });
});

describe("connection errors", () => {
  it("refused port", async () => {
    const port = await freePort();
    for (const transport of ["auto", "sse"] as const) {
      const err = await rejection(connect(`http://127.0.0.1:${port}/mcp`, { transport }));
      expect(err).toMatchObject({ kind: "refused", message: `Connection refused by 127.0.0.1:${port} (is the server running?)` });
    }
  });

  it("unresolvable host name", async () => {
    const err = await rejection(connect("http://nonexistent.invalid/mcp"));
    expect(err.kind).toBe("dns");
    expect(err.message).toContain("nonexistent.invalid");
  });

  it("not an http(s) URL", async () => {
    expect((await rejection(connect("ftp://127.0.0.1/mcp"))).kind).toBe("unknown");
  });

  it("a server that accepts connections but never answers → timeout, on both transports", async () => {
    const sockets = new Set<net.Socket>();
    const mute = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => mute.listen(0, "127.0.0.1", resolve));
    const { port } = mute.address() as net.AddressInfo;
    try {
      for (const transport of ["streamable-http", "sse"] as const) {
        const started = Date.now();
        const err = await rejection(connect(`http://127.0.0.1:${port}/mcp`, { transport, timeoutMs: 500 }));
        expect(err.kind).toBe("timeout");
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      mute.close();
    }
  });

  const hasOpenssl = (() => {
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasOpenssl)("self-signed certificate → tls", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "ignore" });
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_req, res) => res.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const err = await rejection(connect(`https://127.0.0.1:${port}/mcp`));
      expect(err.kind).toBe("tls");
      expect(err.message).toMatch(/certificate/i);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
