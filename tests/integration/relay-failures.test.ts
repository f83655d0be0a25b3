import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RELAY_PATH } from "@/lib/relay/protocol";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { EVERYTHING, callTool, childrenOf, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("agent relay: link and process failures", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  let paired: Awaited<ReturnType<typeof pairNewAgent>>;
  let everythingId: string;
  const config = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } };
  const fast = { SWITCHBOARD_AGENT_HEARTBEAT_MS: "300", SWITCHBOARD_AGENT_BACKOFF_MS: "100" };
  const logs = () => `--- agent ---\n${agent?.output()}\n--- console ---\n${sb.logs().slice(-4000)}`;
  const longCall = () => callTool(api, everythingId, "trigger-long-running-operation", { duration: 20, steps: 20 });
  const everythingPid = () => childrenOf(agent!.child.pid!).find((c) => c.cmd.includes("server-everything"))?.pid;

  beforeAll(async () => {
    sb = await startConsole({ env: { SWITCHBOARD_RELAY_HEARTBEAT_MS: "300" } });
    ({ api } = await setupOwner(sb.url));
    paired = await pairNewAgent(api, sb.url, "flaky");
    agent = startAgent(paired.home, config, { grace: 30, env: fast });
    await waitForAgent(api, paired.agentId, "online", 20_000, logs);
    everythingId = await serverId(api, "everything");
    expect((await callTool(api, everythingId, "echo", { message: "warm" })).body.call.status).toBe("ok");
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("keeps the session through a short outage (grace period) and resumes it", async () => {
    const before = (await api("GET", `/api/v1/servers/${everythingId}`)).body.server.session.id;
    const pid = everythingPid();
    agent!.child.kill("SIGSTOP");
    await waitForAgent(api, paired.agentId, "offline", 10_000, logs);
    const t0 = Date.now();
    const offline = (await callTool(api, everythingId, "echo", { message: "while away" })).body.call;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(offline.status).toBe("error");
    expect(offline.error).toMatchObject({ kind: "offline", message: expect.stringMatching(/agent offline/) });
    agent!.child.kill("SIGCONT");
    await waitForAgent(api, paired.agentId, "online", 10_000, logs);
    const back = (await callTool(api, everythingId, "echo", { message: "resumed" })).body.call;
    expect(back.status).toBe("ok");
    expect(back.sessionId).toBe(before);
    expect(everythingPid()).toBe(pid);
  });

  it("fails an in-flight call the moment a server process is killed, then starts a new one", async () => {
    const pid = everythingPid()!;
    const pending = longCall();
    await waitFor(async () => (await api("GET", `/api/v1/calls?serverId=${everythingId}`)).body.items[0]?.status === "pending");
    process.kill(pid, "SIGKILL");
    const call = (await pending).body.call;
    expect(call.status).toBe("error");
    expect(call.error).toMatchObject({ kind: "connection", message: expect.stringMatching(/exited|closed/i) });
    const agentView = (await api("GET", `/api/v1/agents/${paired.agentId}`)).body.agent;
    expect(agentView.servers[0].lastExit).toMatchObject({ signal: "SIGKILL" });
    expect((await callTool(api, everythingId, "echo", { message: "new process" })).body.call.status).toBe("ok");
    expect(everythingPid()).not.toBe(pid);
  });

  it("fails an in-flight call at once when the agent dies, and later calls immediately as offline", async () => {
    const pending = longCall();
    await waitFor(async () => (await api("GET", `/api/v1/calls?serverId=${everythingId}`)).body.items[0]?.status === "pending");
    const t0 = Date.now();
    await agent!.stop("SIGKILL");
    const call = (await pending).body.call;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(call.status).toBe("error");
    expect(call.error).toMatchObject({ kind: "offline", message: expect.stringMatching(/agent offline/) });
    await waitForAgent(api, paired.agentId, "offline", 10_000, logs);
    const t1 = Date.now();
    const later = (await callTool(api, everythingId, "echo", { message: "x" })).body.call;
    expect(Date.now() - t1).toBeLessThan(1000);
    expect(later).toMatchObject({ status: "error" });
    expect(later.error).toMatchObject({ kind: "offline", message: expect.stringMatching(/agent offline/) });
    const history = (await api("GET", `/api/v1/calls?serverId=${everythingId}`)).body.items;
    expect(history[0].id).toBe(later.id);
  });

  it("brings everything back when the agent starts again", async () => {
    agent = startAgent(paired.home, config, { grace: 30, env: fast });
    await waitForAgent(api, paired.agentId, "online", 20_000, logs);
    expect((await callTool(api, everythingId, "echo", { message: "back" })).body.call.status).toBe("ok");
  });

  it("refuses a server the agent no longer lists", async () => {
    await agent!.stop();
    agent = startAgent(paired.home, { mcpServers: { other: config.mcpServers.everything } }, { env: fast });
    await waitFor(async () => (await api("GET", `/api/v1/agents/${paired.agentId}`)).body.agent.servers.some((s: { name: string; online: boolean }) => s.name === "other" && s.online), 20_000, logs);
    const call = (await callTool(api, everythingId, "echo", { message: "x" })).body.call;
    expect(call.status).toBe("error");
    expect(call.error.message).toMatch(/no longer lists "everything"/);
  });

  it("survives thousands of malformed and random frames from an agent", async () => {
    const fuzzer = await pairNewAgent(api, sb.url, "fuzzer");
    const ws = new WebSocket(`${sb.url.replace("http", "ws")}${RELAY_PATH}`, { headers: { authorization: `Bearer ${fuzzer.token}` } });
    const replies: string[] = [];
    ws.on("message", (d) => replies.push(d.toString()));
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    ws.send(JSON.stringify({ type: "hello", version: 1, agent: { version: "x", hostname: "fuzz", platform: "linux" }, servers: [{ name: "fz" }], graceMs: 0 }));
    await waitFor(() => replies.some((r) => r.includes('"welcome"')));
    for (let i = 0; i < 3000; i++) {
      const r = Math.random();
      if (r < 0.3) ws.send(Buffer.from(Array.from({ length: 1 + (i % 100) }, () => Math.floor(Math.random() * 256))));
      else if (r < 0.5) ws.send(["{", "[]", "null", '{"type":"hello"}', '{"type":"exit","session":"x"}'][i % 5]);
      else if (r < 0.8) ws.send(JSON.stringify({ type: "message", session: `ghost-${i}`, message: { jsonrpc: "2.0", id: i, result: {} } }));
      else ws.send(JSON.stringify({ type: ["opened", "stderr", "exit", "error", "hello"][i % 5], session: `s${i}`, pid: "x", chunk: 5 }));
    }
    ws.send(JSON.stringify({ type: "ping", t: 99 }));
    await waitFor(() => replies.some((r) => r.includes('"pong"') && r.includes("99")), 20_000);
    expect(replies.filter((r) => r.includes('"error"')).length).toBeGreaterThan(2000);
    ws.close();
    expect((await callTool(api, everythingId, "echo", { message: "still fine" })).status).toBe(200);
    const other = await serverId(api, "other");
    expect((await callTool(api, other, "echo", { message: "still fine" })).body.call.status).toBe("ok");
  });
});
