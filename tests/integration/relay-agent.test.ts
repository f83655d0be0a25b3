import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { CL_FIXTURE, EVERYTHING, FILESYSTEM, MEMORY, callTool, pairNewAgent, runCli, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("agent relay: a real agent process paired with a real console", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  let paired: Awaited<ReturnType<typeof pairNewAgent>>;
  let importedMemoryId: string;
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "sb-fs-"));
  fs.writeFileSync(path.join(files, "hello.txt"), "hello from the agent's disk");
  const node = process.execPath;
  const config = {
    mcpServers: {
      everything: { command: node, args: [EVERYTHING, "stdio"], env: { SB_CONFIG_VAR: "from-config" } },
      filesystem: { command: node, args: [FILESYSTEM, files] },
      memory: { command: node, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(files, "memory.jsonl") } },
      framed: { command: node, args: [CL_FIXTURE], framing: "content-length" },
      missing: { command: "switchboard-no-such-command-xyz" },
      remote: { url: "https://example.com/mcp" },
    },
  };
  const logs = () => `--- agent ---\n${agent?.output()}\n--- console ---\n${sb.logs().slice(-4000)}`;

  beforeAll(async () => {
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
    const imported = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } } }) });
    importedMemoryId = imported.body.created[0].id;
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("serves the agent package at /agent.tgz", async () => {
    const res = await fetch(`${sb.url}/agent.tgz`);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });

  it("pairs with a one-time code and stores the token with mode 0600", async () => {
    paired = await pairNewAgent(api, sb.url, "laptop");
    expect(paired.code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(paired.pairing.command).toBe(`npx -y ${sb.url}/agent.tgz pair ${paired.code} --console ${sb.url}`);
    expect(fs.statSync(path.join(paired.home, "agent.json")).mode & 0o777).toBe(0o600);
    const again = await runCli(paired.home, ["pair", paired.code, "--console", sb.url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/unknown, used or expired/);
    const list = await api("GET", "/api/v1/agents");
    expect(list.body.items).toEqual([expect.objectContaining({ id: paired.agentId, name: "laptop", status: "offline", servers: [] })]);
    expect(JSON.stringify(list.body)).not.toContain(paired.token);
  });

  it("comes online with the servers of its local config and adopts an imported stdio entry", async () => {
    agent = startAgent(paired.home, config);
    const online = await waitForAgent(api, paired.agentId, "online", 20_000, logs);
    expect(online.hostname).toBe(os.hostname());
    expect(online.servers.map((s: { name: string }) => s.name).sort()).toEqual(["everything", "filesystem", "framed", "memory", "missing"]);
    expect(agent.output()).toMatch(/skipped "remote": remote \(url\) server/);
    const servers = (await api("GET", "/api/v1/servers")).body.items;
    const memory = servers.find((s: { name: string }) => s.name === "memory");
    expect(memory).toMatchObject({ id: importedMemoryId, kind: "agent", agentId: paired.agentId, url: null });
    const status = await runCli(paired.home, ["status", "--config", path.join(paired.home, "servers.json")]);
    expect(status.stdout).toMatch(/token valid; agent online/);
  });

  it("calls tools on server-everything through the relay, recorded like any call", async () => {
    const id = await serverId(api, "everything");
    const echo = await callTool(api, id, "echo", { message: "hello over the relay" });
    expect(echo.status).toBe(200);
    expect(echo.body.call).toMatchObject({ status: "ok", serverName: "everything" });
    expect(JSON.stringify(echo.body.call.result)).toContain("hello over the relay");
    const session = (await api("GET", `/api/v1/servers/${id}`)).body.server.session;
    expect(session).toMatchObject({ status: "connected", transport: "relay", era: "legacy" });
    const tools = (await api("GET", `/api/v1/servers/${id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-env"]));
    const history = (await api("GET", `/api/v1/calls?serverId=${id}`)).body.items;
    expect(history[0]).toMatchObject({ id: echo.body.call.id, status: "ok" });
  });

  it("gives servers a minimal environment plus their config's env, nothing else", async () => {
    const call = (await callTool(api, await serverId(api, "everything"), "get-env")).body.call;
    const env = JSON.parse(call.result.content[0].text) as Record<string, string>;
    expect(env.SB_CONFIG_VAR).toBe("from-config");
    expect(env.RELAY_LEAK_MARKER).toBeUndefined();
    expect(env.SWITCHBOARD_AGENT_HOME).toBeUndefined();
    const allowed = new Set(["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "SB_CONFIG_VAR"]);
    expect(Object.keys(env).filter((k) => !allowed.has(k))).toEqual([]);
  });

  it("reaches server-filesystem on a temporary directory and server-memory", async () => {
    const fsId = await serverId(api, "filesystem");
    const read = (await callTool(api, fsId, "read_text_file", { path: path.join(files, "hello.txt") })).body.call;
    expect(read.status).toBe("ok");
    expect(JSON.stringify(read.result)).toContain("hello from the agent's disk");
    const outside = (await callTool(api, fsId, "read_text_file", { path: "/etc/hostname" })).body.call;
    expect(outside.isError || outside.status !== "ok").toBe(true);

    const memId = await serverId(api, "memory");
    const created = (await callTool(api, memId, "create_entities", { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] })).body.call;
    expect(created.status).toBe("ok");
    const graph = (await callTool(api, memId, "read_graph")).body.call;
    expect(JSON.stringify(graph.result)).toContain("wrote the first program");
  });

  it("speaks Content-Length framing to a server configured for it", async () => {
    const call = (await callTool(api, await serverId(api, "framed"), "echo", { message: "framed hello" })).body.call;
    expect(call.status).toBe("ok");
    expect(JSON.stringify(call.result)).toContain("Echo: framed hello");
  });

  it("reports a missing command clearly instead of hanging", async () => {
    const t0 = Date.now();
    const call = (await callTool(api, await serverId(api, "missing"), "anything")).body.call;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(call.status).toBe("error");
    expect(call.error.message).toMatch(/command not found: switchboard-no-such-command-xyz/);
    const a = (await api("GET", `/api/v1/agents/${paired.agentId}`)).body.agent;
    expect(a.servers.find((s: { name: string }) => s.name === "missing").lastExit.error).toMatch(/command not found/);
  });

  it("shows a server's exit code and last stderr lines when its process dies", async () => {
    const id = await serverId(api, "framed");
    const call = (await callTool(api, id, "crash")).body.call;
    expect(call.status).toBe("error");
    const a = (await api("GET", `/api/v1/agents/${paired.agentId}`)).body.agent;
    const framed = a.servers.find((s: { name: string }) => s.name === "framed");
    expect(framed.lastExit).toMatchObject({ code: 3 });
    expect(framed.lastExit.stderrTail.join("\n")).toContain("fatal: the fixture was asked to crash");
    expect(framed.stderr.join("\n")).toContain("content-length fixture ready");
    const next = (await callTool(api, id, "echo", { message: "after the crash" })).body.call;
    expect(next.status).toBe("ok");
  });

  let everythingId: string;

  it("revokes: the socket closes at once, the agent stops, its token stops working and its servers are archived", async () => {
    everythingId = await serverId(api, "everything");
    expect((await api("DELETE", `/api/v1/agents/${paired.agentId}`)).status).toBe(204);
    const code = await agent!.exited();
    expect(code).toBe(2);
    expect(agent!.output()).toMatch(/revoked/);
    expect((await api("GET", `/api/v1/agents/${paired.agentId}`)).body.agent.status).toBe("revoked");
    const self = await fetch(`${sb.url}/api/v1/agents/self`, { headers: { authorization: `Bearer ${paired.token}` } });
    expect(self.status).toBe(401);
    expect((await api("GET", `/api/v1/servers/${everythingId}`)).body.server.archivedAt).toEqual(expect.any(String));
    const call = await callTool(api, everythingId, "echo", { message: "x" });
    expect(call.status).toBe(409);
    expect(call.body.error.message).toMatch(/"everything" is archived/);
    const restarted = startAgent(paired.home, config);
    expect(await restarted.exited()).toBe(2);
    expect(restarted.output()).toMatch(/refused this agent's token/);
  });

  it("pairs again after a revocation and takes its servers back, history included", async () => {
    const again = await pairNewAgent(api, sb.url, "laptop again");
    fs.copyFileSync(path.join(again.home, "agent.json"), path.join(paired.home, "agent.json"));
    agent = startAgent(paired.home, config);
    await waitForAgent(api, again.agentId, "online", 20_000, logs);
    expect(await serverId(api, "everything")).toBe(everythingId);
    expect((await callTool(api, everythingId, "echo", { message: "welcome back" })).body.call.status).toBe("ok");
    await agent.stop();
  });

  it("unpairs from the agent side", async () => {
    const other = await pairNewAgent(api, sb.url, "second");
    const res = await runCli(other.home, ["unpair"]);
    expect(res.stdout).toMatch(/console revoked this agent/);
    expect(fs.existsSync(path.join(other.home, "agent.json"))).toBe(false);
    expect((await api("GET", `/api/v1/agents/${other.agentId}`)).body.agent.status).toBe("revoked");
  });
});
