import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpConnection, McpError, openConnection, type TransportMode } from "@/lib/mcp/server";
import { type RunningServer, startEverything, startFixture } from "../support/servers";
import { waitFor } from "../support/console";

const TIMEOUT = 10_000;
let streamable: RunningServer;
let sse: RunningServer;
let modern: RunningServer;
const open: McpConnection[] = [];

async function connect(url: string, transport: TransportMode = "auto", extra: Partial<Parameters<typeof openConnection>[0]> = {}) {
  const connection = await openConnection({ url, transport, headers: {}, timeoutMs: TIMEOUT, ...extra });
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

function textOf(result: Record<string, unknown>): string {
  return (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "").join("");
}

beforeAll(async () => {
  [streamable, sse, modern] = await Promise.all([
    startEverything("streamableHttp"),
    startEverything("sse"),
    startFixture("modern-server.ts"),
  ]);
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await Promise.all([streamable?.stop(), sse?.stop(), modern?.stop()]);
});

describe.each([
  { name: "Streamable HTTP, auto", server: () => streamable, mode: "auto" as const, transport: "streamable-http" },
  { name: "Streamable HTTP, forced", server: () => streamable, mode: "streamable-http" as const, transport: "streamable-http" },
  { name: "HTTP+SSE, auto fallback", server: () => sse, mode: "auto" as const, transport: "sse" },
  { name: "HTTP+SSE, forced", server: () => sse, mode: "sse" as const, transport: "sse" },
])("server-everything over $name", ({ server, mode, transport }) => {
  let conn: McpConnection;
  beforeAll(async () => {
    conn = await connect(server().url, mode);
  });

  it("negotiates a legacy session and reports it", () => {
    expect(conn.info).toMatchObject({
      transport,
      era: "legacy",
      protocolVersion: "2025-11-25",
      serverInfo: { name: "mcp-servers/everything" },
    });
    expect(conn.discoverResult).toBeNull();
    expect(conn.info.capabilities).toHaveProperty("tools");
    expect(conn.info.instructions).toContain("Everything");
    if (transport === "streamable-http") expect(conn.info.remoteSessionId).toMatch(/^[0-9a-f-]{36}$/);
    else expect(conn.info.remoteSessionId).toBeNull();
  });

  it("lists every kind", async () => {
    const tools = (await conn.list("tools")) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]));
    expect(await conn.list("resources")).toHaveLength(7);
    expect(await conn.list("resource-templates")).toHaveLength(2);
    expect(await conn.list("prompts")).toHaveLength(4);
  });

  it("calls tools, reads resources and gets prompts", async () => {
    expect(textOf(await conn.request("tools/call", { name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
    const image = await conn.request("tools/call", { name: "get-tiny-image", arguments: {} });
    expect(image.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: "image", mimeType: "image/png" })]));
    const [first] = (await conn.list("resources")) as Array<{ uri: string }>;
    const read = await conn.request("resources/read", { uri: first!.uri });
    expect((read.contents as Array<{ uri: string }>)[0]!.uri).toBe(first!.uri);
    const prompt = await conn.request("prompts/get", { name: "simple-prompt" });
    expect(prompt.messages).toHaveLength(1);
  });

  it("keeps an isError tool result as a result", async () => {
    const result = await conn.request("tools/call", { name: "get-sum", arguments: { a: "not a number" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Input validation error");
  });

  it("turns a JSON-RPC error into a protocol McpError", async () => {
    const err = await rejection(conn.request("prompts/get", { name: "no-such-prompt" }));
    expect(err.kind).toBe("protocol");
    expect(err.code).toBe(-32602);
    expect(err.message).toContain("no-such-prompt");
  });

  it("times out a slow request", async () => {
    const started = Date.now();
    const err = await rejection(
      conn.request("tools/call", { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } }, { timeoutMs: 300 }),
    );
    expect(err).toMatchObject({ kind: "timeout", message: "Request timed out after 300 ms" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("cancels a request through its AbortSignal", async () => {
    const controller = new AbortController();
    const pending = conn.request(
      "tools/call",
      { name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort("user pressed stop"), 100);
    const err = await rejection(pending);
    expect(err).toMatchObject({ kind: "cancelled", message: "Request cancelled (user pressed stop)" });
    await conn.ping();
  });
});

describe("server-everything sessions", () => {
  it("runs with a scrubbed environment (its get-env tool prints all of it)", async () => {
    const conn = await connect(streamable.url);
    const env = JSON.parse(textOf(await conn.request("tools/call", { name: "get-env", arguments: {} }))) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(["HOME", "NODE_ENV", "PATH", "PORT"]);
  });

  it("fails a forced Streamable HTTP connection to an SSE-only endpoint", async () => {
    const err = await rejection(connect(sse.url, "streamable-http"));
    expect(err).toMatchObject({ kind: "http", status: 404 });
    expect(err.message).toContain("Cannot POST /sse");
  });

  it("re-initialises once when the server forgot the session (400 No valid session ID)", async () => {
    const conn = await connect(streamable.url, "streamable-http");
    const before = conn.info.remoteSessionId;
    await streamable.stop();
    streamable = await startEverything("streamableHttp", { port: streamable.port });
    const result = await conn.request("tools/call", { name: "echo", arguments: { message: "again" } });
    expect(textOf(result)).toBe("Echo: again");
    expect(conn.info.remoteSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(conn.info.remoteSessionId).not.toBe(before);
  });

  it("sends DELETE for the session on close and then refuses requests", async () => {
    const conn = await connect(streamable.url, "streamable-http");
    const sessionId = conn.info.remoteSessionId!;
    await conn.close();
    // The server logs it on its stdout, which may reach us just after its answer.
    await waitFor(() => streamable.output().includes(`Received session termination request for session ${sessionId}`));
    const err = await rejection(conn.ping());
    expect(err.kind).toBe("closed");
    await conn.close();
  });
});

describe("modern-era fixture", () => {
  it("negotiates 2026-07-28 through server/discover", async () => {
    const conn = await connect(modern.url);
    expect(conn.info).toMatchObject({
      transport: "streamable-http",
      era: "modern",
      protocolVersion: "2026-07-28",
      serverInfo: { name: "switchboard-modern-fixture" },
      remoteSessionId: null,
      negotiation: "probe",
      negotiationNote: null,
    });
    expect(Object.keys(conn.info).sort()).toEqual(
      ["capabilities", "era", "instructions", "negotiation", "negotiationNote", "protocolVersion", "remoteSessionId", "serverInfo", "transport"],
    );
    expect(conn.discoverResult).toHaveProperty("supportedVersions");
    const add = await conn.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } });
    expect(add.structuredContent).toEqual({ sum: 5 });
    const err = await rejection(conn.request("tools/call", { name: "nope", arguments: {} }));
    expect(err.kind).toBe("protocol");
    // The modern era has no ping; the health probe must still succeed.
    await expect(conn.ping()).resolves.toBeUndefined();
  });

  it("reconnects from a saved discover result and hears list_changed", async () => {
    const first = await connect(modern.url);
    let heard: (kind: string) => void = () => {};
    const changed = new Promise<string>((resolve) => (heard = resolve));
    const conn = await connect(modern.url, "streamable-http", {
      eraHint: "modern",
      discoverResult: first.discoverResult,
      onListChanged: (kind) => heard(kind),
    });
    expect(conn.info.era).toBe("modern");
    const before = await conn.tools();
    expect(before.map((t) => t.name).sort()).toEqual(["add", "echo", "touch-tools"]);
    expect(await conn.tools()).toBe(before);
    await conn.request("tools/call", { name: "touch-tools", arguments: {} });
    expect(await changed).toBe("tools");
    expect(await conn.tools()).not.toBe(before);
  });
});
