/**
 * The whole relay in one process: the console's WebSocket endpoint (attachRelay + hub) and the
 * agent's link (agent/src) over a real socket on 127.0.0.1, real stdio servers, and the SDK
 * Client on the RelayTransport. Prisma is replaced by an in-memory stand-in.
 */
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { hashToken } from "@/lib/core/crypto";

const TOKEN = "sba_in-process-test-token-0123456789";
// The relay's view of agents, handed in as server.ts hands in the real queries.
const agents = {
  announceServers: async ({ names }: { names: string[] }) => names.map((name) => ({ name, serverId: `srv-${name}` })),
  touch: async () => ({}),
  findByTokenHash: async (tokenHash: string) => (tokenHash === hashToken(TOKEN) ? { id: "agent-1", workspaceId: "ws-1", name: "laptop" } : null),
};
process.env.SWITCHBOARD_RELAY_HEARTBEAT_MS = "200";

const { attachRelay } = await import("@/lib/relay/socket-server");
const { RelayTransport } = await import("@/lib/relay/transport");
const hub = await import("@/lib/relay/hub");
const { AgentLink } = await import("@/agent/src/link");
const { setLogLevel } = await import("@/agent/src/log");

const ROOT = path.resolve(import.meta.dirname, "../..");
const EVERYTHING = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FIXTURE = path.join(ROOT, "tests/fixtures/content-length-server.mjs");
const base = { args: [] as string[], env: {}, framing: "newline" as const };
const servers = new Map([
  ["everything", { ...base, name: "everything", command: process.execPath, args: [EVERYTHING, "stdio"] }],
  ["cl", { ...base, name: "cl", command: process.execPath, args: [FIXTURE], framing: "content-length" as const }],
  ["cl-exit-on-probe", { ...base, name: "cl-exit-on-probe", command: process.execPath, args: [FIXTURE], framing: "content-length" as const, env: { EXIT_ON_UNKNOWN: "1" } }],
  ["missing", { ...base, name: "missing", command: "switchboard-no-such-command-xyz" }],
]);

async function waitFor(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function connect(serverName: string) {
  const transport = new RelayTransport({ agentId: "agent-1", serverName });
  const client = new Client({ name: "test", version: "1" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
  await client.connect(transport, { timeout: 10_000 });
  return { client, transport };
}

describe("relay in process", () => {
  let server: http.Server;
  let relay: ReturnType<typeof attachRelay>;
  let link: InstanceType<typeof AgentLink>;
  let port = 0;
  const published: { workspaceId: string; type: string; status: string }[] = [];
  const newLink = (graceMs: number) =>
    new AgentLink({
      credentials: { consoleUrl: `http://127.0.0.1:${port}`, agentId: "agent-1", token: TOKEN, name: "laptop", pairedAt: "now" },
      servers,
      version: "test",
      maxMessageBytes: 1024 * 1024,
      graceMs,
      heartbeatMs: 200,
      deadAfterMs: 600,
      backoffMs: 20,
      maxBackoffMs: 100,
      timings: { stdinGraceMs: 300, termGraceMs: 300 },
    });

  beforeAll(async () => {
    setLogLevel("error");
    relay = attachRelay({ publish: (workspaceId, event) => published.push({ workspaceId, ...event }), agents });
    server = http.createServer((_req, res) => res.writeHead(404).end());
    server.on("upgrade", (req, socket, head) => (relay.handles(req) ? relay.upgrade(req, socket, head) : socket.destroy()));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
    link = newLink(3000);
    link.start();
    await waitFor(() => hub.isAgentServerOnline("agent-1", "everything"));
  });

  afterAll(async () => {
    await link?.stop();
    relay?.close();
    server?.close();
  });

  it("tells the workspace's browsers through the event bus that the agent's servers are reachable", () => {
    expect(published.length).toBeGreaterThan(0);
    expect(published.every((e) => e.type === "server" && e.status === "disconnected")).toBe(true);
  });

  it("calls a stdio server through the relay; the era probe settles on legacy", async () => {
    const { client, transport } = await connect("everything");
    expect(client.getProtocolEra()).toBe("legacy");
    expect(typeof transport.pid).toBe("number");
    const result = await client.callTool({ name: "echo", arguments: { message: "through the relay" } });
    expect(JSON.stringify(result)).toContain("through the relay");
    const many = await Promise.all(Array.from({ length: 50 }, (_, i) => client.callTool({ name: "echo", arguments: { message: `m${i}` } })));
    expect(many.map((r) => JSON.stringify(r)).every((t, i) => t.includes(`m${i}`))).toBe(true);
    await client.close();
  });

  it("speaks Content-Length framing when the config says so", async () => {
    const { client } = await connect("cl");
    expect(JSON.stringify(await client.callTool({ name: "echo", arguments: { message: "framed" } }))).toContain("Echo: framed");
    await client.close();
  });

  it("survives a server that exits on the era probe (started again once, as legacy)", async () => {
    const { client } = await connect("cl-exit-on-probe");
    expect(client.getProtocolEra()).toBe("legacy");
    expect(JSON.stringify(await client.callTool({ name: "echo", arguments: { message: "again" } }))).toContain("Echo: again");
    await client.close();
  });

  it("refuses names the agent did not announce and reports a missing command clearly", async () => {
    await expect(connect("not-announced")).rejects.toThrow(/does not list "not-announced"/);
    await expect(connect("missing")).rejects.toThrow(/command not found: switchboard-no-such-command-xyz/);
    expect(hub.serverOutput("agent-1", "missing").lastExit?.error).toMatch(/command not found/);
  });

  it("ends the session with the exit code and the last stderr lines when the process dies", async () => {
    const { client } = await connect("cl");
    const closed = new Promise<void>((r) => (client.onclose = r));
    await expect(client.callTool({ name: "crash", arguments: {} })).rejects.toThrow(/exited \(code 3\)[\s\S]*fatal: the fixture was asked to crash/);
    await closed;
    expect(hub.serverOutput("agent-1", "cl").lastExit).toMatchObject({ code: 3 });
  });

  it("fails in-flight calls when the link drops, fails new ones at once, and resumes within the grace period", async () => {
    const { client, transport } = await connect("everything");
    const pid = transport.pid;
    const slow = client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 5, steps: 5 } });
    slow.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    hub.relayHub().links.get("agent-1")!.close(1012, "test drop");
    await expect(slow).rejects.toThrow(/agent offline/);
    expect(Date.now() - t0).toBeLessThan(1000);
    await expect(client.callTool({ name: "echo", arguments: { message: "x" } })).rejects.toThrow(/agent offline/);
    await waitFor(() => hub.isAgentOnline("agent-1"));
    const again = await client.callTool({ name: "echo", arguments: { message: "resumed" } });
    expect(JSON.stringify(again)).toContain("resumed");
    expect(transport.pid).toBe(pid);
    await client.close();
  });

  it("notices a silent link through heartbeats", async () => {
    const before = hub.relayHub().links.get("agent-1")!;
    // Stop answering pings on the agent side by pausing its socket reads.
    const agentWs = (link as unknown as { ws: { pause(): void } }).ws;
    agentWs.pause();
    await waitFor(() => hub.relayHub().links.get("agent-1") !== before, 5000);
    await waitFor(() => hub.isAgentOnline("agent-1"), 5000);
  });

  it("closes everything at once on revocation and stops the agent", async () => {
    const { client } = await connect("everything");
    const closed = new Promise<void>((r) => (client.onclose = r));
    hub.revokeLink("agent-1");
    await closed;
    await expect(link.done).resolves.toMatchObject({ code: 2 });
  });

  it("ends sessions when the agent does not come back within its grace period", async () => {
    link = newLink(500);
    link.start();
    await waitFor(() => hub.isAgentServerOnline("agent-1", "everything"));
    const { client } = await connect("everything");
    const errors: string[] = [];
    client.onerror = (e) => errors.push(e.message);
    const closed = new Promise<void>((r) => (client.onclose = r));
    const t0 = Date.now();
    await link.stop();
    await closed;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
    expect(errors.join()).toMatch(/grace period/);
  });
});
