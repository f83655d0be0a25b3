/**
 * A message over the relay's cap fails its call at once, naming its size and the cap, both ways:
 * a request the console would send (checked before sending) and a server's answer (the agent
 * sends a small error for that request instead). The console runs with a 1 MiB cap, which the
 * agent (16 MiB by default) adopts from the welcome.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { ROOT, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const FIXTURE = path.join(ROOT, "tests/fixtures/oversized-server.mjs");
const CAP = 1024 * 1024;
const ANSWER_TOO_LARGE = /^The server's answer is 1\.\d MiB; the relay carries at most 1 MiB per message$/;
const REQUEST_TOO_LARGE = /^The request \(tools\/call\) is 1\.\d MiB; the relay carries at most 1 MiB per message$/;

describe("agent relay: messages over the cap", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  let id: string;
  const logs = () => `--- agent ---\n${agent?.output()}\n--- console ---\n${sb.logs().slice(-4000)}`;
  // A call timeout of 30 s: an error that names the size cannot come from it.
  const call = async (name: string, args: Record<string, unknown>) => {
    const t0 = Date.now();
    const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args, timeoutMs: 30_000 });
    return { res, elapsed: Date.now() - t0 };
  };

  beforeAll(async () => {
    sb = await startConsole({ env: { SWITCHBOARD_RELAY_MAX_BYTES: String(CAP), SWITCHBOARD_MAX_CALL_BODY_BYTES: String(4 * CAP) } });
    ({ api } = await setupOwner(sb.url));
    const paired = await pairNewAgent(api, sb.url, "big-talker");
    agent = startAgent(paired.home, { mcpServers: { oversized: { command: process.execPath, args: [FIXTURE] } } });
    await waitForAgent(api, paired.agentId, "online", 20_000, logs);
    id = await serverId(api, "oversized");
    expect((await call("huge", { bytes: 1000 })).res.body.call.status).toBe("ok");
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("fails a call whose answer is over the cap at once, and the session goes on", async () => {
    const { res, elapsed } = await call("huge", { bytes: CAP + 200_000 });
    expect(res.status).toBe(200);
    expect(res.body.call).toMatchObject({ status: "error", error: { message: expect.stringMatching(ANSWER_TOO_LARGE) } });
    expect(elapsed).toBeLessThan(20_000);
    const stored = (await api("GET", `/api/v1/calls/${res.body.call.id}`)).body.call;
    expect(stored).toMatchObject({ status: "error", error: { message: expect.stringMatching(ANSWER_TOO_LARGE) } });
    expect(stored.durationMs).toEqual(expect.any(Number));
    expect(agent!.output()).toMatch(/The server's answer is 1\.\d MiB/);
    expect((await call("huge", { bytes: CAP - 100_000 })).res.body.call.status).toBe("ok");
  }, 60_000);

  it("fails a call whose request is over the cap before sending it", async () => {
    const { res, elapsed } = await call("echo", { message: "y".repeat(CAP + 100_000) });
    expect(res.status).toBe(200);
    expect(res.body.call).toMatchObject({ status: "error", error: { message: expect.stringMatching(REQUEST_TOO_LARGE) } });
    expect(elapsed).toBeLessThan(20_000);
    expect((await api("GET", `/api/v1/calls/${res.body.call.id}`)).body.call.status).toBe("error");
    expect((await call("echo", { message: "small" })).res.body.call).toMatchObject({ status: "ok", result: { content: [{ text: "Got 5 characters" }] } });
  }, 60_000);

  it.each(["legacy", "modern"] as const)("answers a %s-era gateway host with a JSON-RPC error naming the size, both ways", async (era) => {
    const { path: endpoint } = (await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).body.exposure;
    const token = (await api("POST", "/api/v1/tokens", { name: `host-${era}`, scopes: ["gateway"] })).body.secret;
    const host = await gatewayHost(`${sb.url}${endpoint}`, token, { era, name: `${era}-host` });
    try {
      await expect(host.callTool({ name: "huge", arguments: { bytes: CAP + 200_000 } })).rejects.toThrow(/The server's answer is 1\.\d MiB; the relay carries at most 1 MiB per message/);
      await expect(host.callTool({ name: "echo", arguments: { message: "y".repeat(CAP + 100_000) } })).rejects.toThrow(/The request \(tools\/call\) is 1\.\d MiB; the relay carries at most 1 MiB per message/);
      expect((await host.callTool({ name: "echo", arguments: { message: "small" } })).content).toEqual([{ type: "text", text: "Got 5 characters" }]);
    } finally {
      await host.close();
    }
  }, 60_000);
});
