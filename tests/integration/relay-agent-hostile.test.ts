/**
 * The real agent process against a hostile fake console: the agent must run only what its local
 * config lists, accept nothing that changes a command, survive garbage, and never send its token
 * anywhere but the console it was paired with.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { RELAY_PATH } from "@/lib/relay/protocol";
import { waitFor } from "../support/console";
import { CL_FIXTURE, newAgentHome, runCli, startAgent, type RunningAgent } from "./relay-support";

const TOKEN = "sba_hostile-test-token-0123456789abcdef";

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)));
}

function rss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? 0) * 1024;
}

describe("the agent against a hostile console", () => {
  const seen: { url: string; authorization?: string }[] = [];
  const captured: { url: string; authorization?: string }[] = [];
  let consoleUrl: string;
  let captureUrl: string;
  let redirectUpgrades = 0;
  const wss = new WebSocketServer({ noServer: true });
  const frames: any[] = [];
  let socket: WebSocket | undefined;
  let agent: RunningAgent;
  const home = newAgentHome();
  const pwned = path.join(os.tmpdir(), `sb-pwned-${process.pid}`);

  const fake = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
    if (req.url === "/api/v1/agents/pair") {
      res.writeHead(307, { location: `${captureUrl}/api/v1/agents/pair` }).end();
      return;
    }
    res.writeHead(404).end();
  });
  fake.on("upgrade", (req, sock, head) => {
    seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
    if (redirectUpgrades > 0) {
      redirectUpgrades--;
      sock.end(`HTTP/1.1 302 Found\r\nlocation: ${captureUrl}${RELAY_PATH}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, sock, head, (ws) => {
      socket = ws;
      ws.on("message", (data) => frames.push(JSON.parse(data.toString())));
    });
  });
  const capture = http.createServer((req, res) => {
    captured.push({ url: req.url ?? "", authorization: req.headers.authorization });
    res.writeHead(200).end("{}");
  });
  capture.on("upgrade", (req, sock) => {
    captured.push({ url: req.url ?? "", authorization: req.headers.authorization });
    sock.destroy();
  });

  const send = (frame: unknown) => socket!.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  const next = async (match: (f: any) => boolean, timeoutMs = 10_000) => {
    let found: any;
    await waitFor(() => (found = frames.find(match)) !== undefined, timeoutMs, () => agent.output());
    return found;
  };

  beforeAll(async () => {
    [consoleUrl, captureUrl] = await Promise.all([listen(fake), listen(capture)]);
    fs.writeFileSync(path.join(home, "agent.json"), JSON.stringify({ consoleUrl, agentId: "a1", token: TOKEN, name: "t", pairedAt: new Date().toISOString() }), { mode: 0o600 });
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    fake.close();
    capture.close();
    fs.rmSync(pwned, { force: true });
  });

  it("does not follow a redirect with a pairing code", async () => {
    const res = await runCli(newAgentHome(), ["pair", "ABCD-EFGH-JKMN", "--console", consoleUrl]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/redirect/);
    expect(seen.some((s) => s.url === "/api/v1/agents/pair")).toBe(true);
    expect(captured).toEqual([]);
  });

  it("sends its token only to the paired console, not to where an upgrade redirects", async () => {
    redirectUpgrades = 2;
    agent = startAgent(home, { mcpServers: { cl: { command: process.execPath, args: [CL_FIXTURE], framing: "content-length" } } }, { env: { SWITCHBOARD_AGENT_BACKOFF_MS: "50" } });
    const hello = await next((f) => f.type === "hello");
    expect(hello).toMatchObject({ version: 1, servers: [{ name: "cl" }], sessions: [] });
    expect(captured).toEqual([]);
    expect(seen.filter((s) => s.url === RELAY_PATH).every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
    send({ type: "welcome", version: 1, agentId: "a1", sessions: [], maxMessageBytes: 16 * 1024 * 1024 });
  });

  it("refuses a server name that is not in its local config, and logs it", async () => {
    send({ type: "open", session: "s-evil", server: "bash" });
    expect(await next((f) => f.session === "s-evil")).toMatchObject({ type: "error", code: "unknown_server" });
    await waitFor(() => /refused: the console asked for "bash"/.test(agent.output()));
  });

  it("rejects any attempt to pass a command, arguments, environment or working directory", async () => {
    send({ type: "open", session: "s-cmd", server: "cl", command: "/bin/sh", args: ["-c", `touch ${pwned}`], env: { X: "1" }, cwd: "/" });
    expect(await next((f) => f.session === "s-cmd")).toMatchObject({ type: "error", code: "bad_frame" });
    expect(frames.some((f) => f.type === "opened" && f.session === "s-cmd")).toBe(false);
    expect(fs.existsSync(pwned)).toBe(false);
  });

  it("survives thousands of malformed and random frames without growing", async () => {
    const before = rss(agent.child.pid!);
    const junk = ["", "{", "null", "[]", '{"type":"open"}', '{"type":"message","session":"x","message":{}}', '{"type":"close"}', "\u0000\u0001", '{"type":"nope"}'];
    for (let i = 0; i < 3000; i++) {
      const r = Math.random();
      if (r < 0.3) send(junk[i % junk.length]);
      else if (r < 0.6) send(Buffer.from(Array.from({ length: 1 + (i % 200) }, () => Math.floor(Math.random() * 256))));
      else if (r < 0.8) send({ type: "message", session: `ghost-${i}`, message: { jsonrpc: "2.0", id: i, method: "tools/list" } });
      else send({ type: ["open", "close", "ping", "welcome", "error"][i % 5], session: i % 3 ? `s${i}` : 42, server: i % 2 ? "cl" : null, t: "x" });
    }
    send({ type: "ping", t: 1234 });
    await next((f) => f.type === "pong" && f.t === 1234);
    expect(agent.child.exitCode).toBeNull();
    expect(frames.filter((f) => f.type === "error").length).toBeGreaterThan(2000);
    expect(rss(agent.child.pid!) - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("still runs its configured server afterwards, from its own config only", async () => {
    send({ type: "open", session: "s-ok", server: "cl" });
    expect(await next((f) => f.type === "opened" && f.session === "s-ok")).toMatchObject({ pid: expect.any(Number) });
    send({ type: "message", session: "s-ok", message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "env", arguments: {} } } });
    const reply = await next((f) => f.type === "message" && f.session === "s-ok" && f.message.id === 1);
    const names = reply.message.result.content[0].text.split(",");
    expect(names).not.toContain("RELAY_LEAK_MARKER");
    expect(names).not.toContain("SWITCHBOARD_AGENT_HOME");
    send({ type: "close", session: "s-ok" });
    expect(await next((f) => f.type === "exit" && f.session === "s-ok")).toMatchObject({ code: 0 });
  });
});
