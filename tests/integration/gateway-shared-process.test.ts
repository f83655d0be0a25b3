import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { ROOT, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const FIXTURE = path.join(ROOT, "tests/fixtures/slow-stdio-server.mjs");

/** One host session, as a CLI host opens per command: initialize, a call, leave (HTTP DELETE). Returns the pid that served it. */
async function oneSession(url: string, token: string): Promise<string> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "cli-host", version: "1.0.0" });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "pid", arguments: {} });
    return (result.content as { text: string }[])[0]!.text;
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

describe("the gateway's sessions on a stdio server share one server process", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  let id: string;
  let url: string;
  let token: string;
  const starts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-shared-")), "starts");
  const started = () => (fs.existsSync(starts) ? fs.readFileSync(starts, "utf8").split("\n").filter(Boolean) : []);

  beforeAll(async () => {
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
    const paired = await pairNewAgent(api, sb.url, "shared-agent");
    agent = startAgent(paired.home, { mcpServers: { counted: { command: process.execPath, args: [FIXTURE], env: { DELAY_MS: "0", STARTS_FILE: starts } } } });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
    id = await serverId(api, "counted");
    url = `${sb.url}${(await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).body.exposure.path}`;
    token = (await api("POST", "/api/v1/tokens", { name: "cli", scopes: ["gateway"] })).body.secret;
  });
  afterAll(async () => {
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("is on by default: three sessions of one host, one process, each call recorded", async () => {
    expect((await api("GET", `/api/v1/servers/${id}`)).body.server.shareProcess).toBe(true);
    const pids = [await oneSession(url, token), await oneSession(url, token), await oneSession(url, token)];
    expect(new Set(pids).size).toBe(1);
    expect(started()).toEqual([pids[0]]);
    const calls = (await api("GET", "/api/v1/calls?origin=gateway")).body.items.filter((c: any) => c.name === "pid");
    expect(calls).toHaveLength(3);
  }, 60_000);

  it("turned off, each session starts its own process", async () => {
    const patched = await api("PATCH", `/api/v1/servers/${id}`, { shareProcess: false });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.server.shareProcess).toBe(false);
    const before = started().length;
    const pids = [await oneSession(url, token), await oneSession(url, token)];
    expect(pids[0]).not.toBe(pids[1]);
    expect(started().length).toBe(before + 2);
  }, 60_000);
});
