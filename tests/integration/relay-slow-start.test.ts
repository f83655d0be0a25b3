import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { ROOT, callTool, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const SLOW = path.join(ROOT, "tests/fixtures/slow-stdio-server.mjs");

describe("a stdio server that takes 7 s to start, with the protocol era on auto", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-slow-"));
  const starts = path.join(dir, "starts");
  const coldStarts = path.join(dir, "cold-starts");
  const count = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);
  const started = () => count(starts);

  beforeAll(async () => {
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
    const paired = await pairNewAgent(api, sb.url, "slow-agent");
    agent = startAgent(paired.home, {
      mcpServers: {
        slow: { command: process.execPath, args: [SLOW], env: { DELAY_MS: "7000", ERAS: "modern", STARTS_FILE: starts } },
        // Started with a 30 s connect budget (a 20 s probe): up after 20.5 s the first time, at once after.
        cold: { command: process.execPath, args: [SLOW], env: { DELAY_MS: "20500", WARM_DELAY_MS: "0", ERAS: "modern", STARTS_FILE: coldStarts } },
        // A 15 s budget (a 10 s probe): up after 10.5 s every time, so a second start cannot fit.
        late: { command: process.execPath, args: [SLOW], env: { DELAY_MS: "10500", ERAS: "modern" } },
      },
    });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("waits for the process to come up, then connects in the modern era with one process", async () => {
    const id = await serverId(api, "slow");
    const connected = await api("POST", `/api/v1/servers/${id}/connect`, {});
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body.session).toMatchObject({ status: "connected", era: "modern", negotiation: "probe" });
    expect(started()).toBe(1);
    const res = await callTool(api, id, "echo", { message: "late but here" });
    expect(res.body.call).toMatchObject({ status: "ok" });
    expect(JSON.stringify(res.body.call.result)).toContain("Echo: late but here");
  }, 40_000);

  it("after a probe given up on, asks a fresh process in the era the first one named (a cache warm by then)", async () => {
    const id = await serverId(api, "cold");
    expect((await api("PATCH", `/api/v1/servers/${id}`, { timeoutMs: 30_000 })).status).toBe(200);
    const res = await api("POST", `/api/v1/servers/${id}/connect`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.session).toMatchObject({ status: "connected", era: "modern", negotiation: "fallback" });
    // Two thirds of the 30 s timeout, as measured: 20 s, or a little more on a loaded machine.
    const note = /^server\/discover got no answer within (\d+(?:\.\d)?) s \(the server was probably still starting\); connected on a fresh process$/.exec(res.body.session.negotiationNote);
    expect(note, res.body.session.negotiationNote).not.toBeNull();
    expect(Number(note![1])).toBeGreaterThanOrEqual(20);
    expect(count(coldStarts)).toBe(2);
  }, 60_000);

  it("names the time it waited when the process starts after the probe gave up and the retry runs out of time", async () => {
    const id = await serverId(api, "late");
    expect((await api("PATCH", `/api/v1/servers/${id}`, { timeoutMs: 15_000 })).status).toBe(200);
    const res = await api("POST", `/api/v1/servers/${id}/connect`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expect(res.body.error.details).toMatchObject({ kind: "timeout" });
    expect(res.body.error.message).toMatch(/^server\/discover got no answer within 10 s \(the server was probably still starting\); a fresh process then failed: /);
    expect(res.body.error.message).not.toMatch(/^Server does not support protocol version/);
  }, 40_000);
});
