import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { EVERYTHING, ROOT, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const TAP = path.join(ROOT, "tests/fixtures/stdio-tap.mjs");
const LONG = "trigger-long-running-operation";

describe("the gateway in front of a stdio server on a paired agent", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let agent: RunningAgent | undefined;
  let client: Client;
  let id: string;
  let url: string;
  let token: string;
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-tap-")), "stdin.ndjson");
  const written = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
  const elicited: unknown[] = [];

  beforeAll(async () => {
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    const paired = await pairNewAgent(api, sb.url, "gateway-agent");
    agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [TAP, log, process.execPath, EVERYTHING, "stdio"] } } });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
    id = await serverId(api, "everything");
    const { path: endpoint } = (await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).body.exposure;
    token = (await api("POST", "/api/v1/tokens", { name: "host", scopes: ["gateway"] })).body.secret;
    url = `${sb.url}${endpoint}`;
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    client = new Client({ name: "stdio-host", version: "0.9" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (request) => (elicited.push(request.params), { action: "accept", content: { name: "Grace" } }));
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("lists and calls the stdio server's tools, recorded as gateway calls", async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    expect((await client.callTool({ name: "echo", arguments: { message: "via agent" } })).content).toEqual([{ type: "text", text: "Echo: via agent" }]);
    let call: any;
    await waitFor(async () => {
      call = (await api("GET", "/api/v1/calls?origin=gateway")).body.items.find((c: any) => c.name === "echo");
      return call?.status === "ok";
    });
    expect(call).toMatchObject({ serverId: id, status: "ok", origin: "gateway" });
    expect((await api("GET", `/api/v1/calls/${call.id}`)).body.call.client).toBe("stdio-host 0.9");
  });

  it("forwards progress, and a cancel reaches the stdio process", async () => {
    const seen: number[] = [];
    await client.callTool({ name: LONG, arguments: { duration: 1, steps: 2 } }, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2]);
    const controller = new AbortController();
    const running = client.callTool({ name: LONG, arguments: { duration: 30, steps: 30 } }, { signal: controller.signal, onprogress: () => controller.abort() });
    await expect(running).rejects.toThrow();
    const sent = written().filter((m) => m.method === "tools/call" && m.params?.name === LONG).at(-1);
    await waitFor(() => written().some((m) => m.method === "notifications/cancelled" && m.params?.requestId === sent.id), 10_000);
    await waitFor(async () => (await api("GET", "/api/v1/calls?origin=gateway&status=cancelled")).body.items.length === 1);
  });

  it("hands the server's elicitation to the host", async () => {
    const result = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(elicited).toHaveLength(1);
    expect(JSON.stringify(result.content)).toContain("Grace");
  });

  it("serves a modern-era host too: a call, progress, and a cancel that reaches the stdio process", async () => {
    const modern = await gatewayHost(url, token, { name: "modern-stdio-host" });
    try {
      expect((await modern.callTool({ name: "echo", arguments: { message: "modern via agent" } })).content).toEqual([{ type: "text", text: "Echo: modern via agent" }]);
      const seen: number[] = [];
      await modern.callTool({ name: LONG, arguments: { duration: 1, steps: 2 } }, { onprogress: (p) => seen.push(p.progress) });
      expect(seen).toEqual([1, 2]);
      const controller = new AbortController();
      const running = modern.callTool({ name: LONG, arguments: { duration: 30, steps: 30 } }, { signal: controller.signal, onprogress: () => controller.abort() });
      await expect(running).rejects.toThrow();
      const sent = written().filter((m) => m.method === "tools/call" && m.params?.name === LONG).at(-1);
      await waitFor(() => written().some((m) => m.method === "notifications/cancelled" && m.params?.requestId === sent.id), 10_000);
      await waitFor(async () => (await api("GET", "/api/v1/calls?origin=gateway&status=cancelled")).body.items.length === 2);
    } finally {
      await modern.close();
    }
  });
});
