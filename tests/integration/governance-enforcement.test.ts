import { createMCPClient } from "@ai-sdk/mcp";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// One engine on every path (docs/governance.md): a workspace rule refuses the console API's call,
// a collection step and a gateway call alike; hosts behind the gateway (the SDK client and the AI
// SDK's MCP client) are offered only what they may call; refused calls are history and counted.
describe("governance: one policy check on every call path, and listing follows calling", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let serverId: string;
  let endpoint: string;
  let aggregated: string;
  let token: string;
  const rules: string[] = [];
  const open: Client[] = [];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    serverId = (await api("POST", "/api/v1/servers", { name: "web", url: everything.url })).body.server.id;
    const exposure = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
    endpoint = `${sb.url}${exposure.path}`;
    aggregated = `${sb.url}/mcp/${encodeURIComponent(owner.workspace.slug)}`;
    token = (await api("POST", "/api/v1/tokens", { name: "governed host", scopes: ["gateway"] })).body.secret;
  });
  afterEach(async () => {
    for (const id of rules.splice(0)) expect((await api("DELETE", `/api/v1/policy-rules/${id}`)).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((c) => c.close()));
    await sb?.stop();
    await everything?.stop();
  });

  async function rule(body: Record<string, unknown>) {
    const created = await api("POST", "/api/v1/policy-rules", { servers: [serverId], ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    rules.push(created.body.rule.id);
    return created.body.rule as { id: string; name: string };
  }

  async function host(url: string, name = "governed-sdk") {
    const client = new Client({ name, version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    open.push(client);
    return client;
  }

  const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
  /** The JSON-RPC error a call is answered with (null when it got a result). */
  const callTool = (client: Client, name: string, args: Record<string, unknown>): Promise<{ error: any }> =>
    client.callTool({ name, arguments: args }).then(() => ({ error: null }), (error: unknown) => ({ error }));

  it("a rule-less workspace changes nothing: every tool listed, every call answered", async () => {
    const client = await host(endpoint);
    expect(await toolNames(client)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    expect((await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } })).isError).not.toBe(true);
    const listed = (await api("GET", `/api/v1/servers/${serverId}/tools`)).body.items.map((t: any) => t.name);
    expect(listed).toEqual(expect.arrayContaining(["echo", "get-sum"]));
  });

  it("one rule refuses the API call, a collection step and a gateway call on both endpoints; each is history and counted", async () => {
    const before = (await api("GET", "/api/v1/stats")).body.totals.denied as number;
    const noSum = await rule({ name: "No sums", effect: "deny", tools: ["get-sum"] });

    // The console API: 403 policy_denied naming the rule, the call recorded as denied.
    const refused = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 1, b: 2 } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "policy_denied", details: { ruleId: noSum.id, ruleName: "No sums", callId: expect.any(String) } });
    expect(refused.body.error.message).toContain("No sums");
    const apiCall = (await api("GET", `/api/v1/calls/${refused.body.error.details.callId}`)).body.call;
    expect(apiCall).toMatchObject({ status: "denied", policyRuleId: noSum.id, origin: "user", name: "get-sum", result: null, error: { kind: "policy" } });
    expect(apiCall.params).toEqual({ name: "get-sum", arguments: { a: 1, b: 2 } });
    // Another tool of the same server is not governed by it.
    expect((await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "fine" } })).body.call.status).toBe("ok");
    // The API's list (and so the command palette) leaves it out.
    const listed = (await api("GET", `/api/v1/servers/${serverId}/tools`)).body.items.map((t: any) => t.name);
    expect(listed).toContain("echo");
    expect(listed).not.toContain("get-sum");

    // A collection step: a failed step naming the rule, linked to its denied call (not a crash).
    const steps = [
      { serverId, method: "tools/call", name: "echo", arguments: { message: "before" } },
      { serverId, method: "tools/call", name: "get-sum", arguments: { a: 2, b: 3 } },
    ];
    const collection = (await api("POST", "/api/v1/collections", { name: "governed", steps })).body.collection;
    const runId = (await api("POST", `/api/v1/collections/${collection.id}/runs`, {})).body.run.id;
    let run: any;
    await waitFor(async () => (run = (await api("GET", `/api/v1/runs/${runId}`)).body.run).status !== "running", 30_000, () => JSON.stringify(run));
    expect(run.status).toBe("failed");
    expect(run.steps[0].status).toBe("passed");
    expect(run.steps[1]).toMatchObject({ status: "failed", error: expect.stringContaining("No sums"), callId: expect.any(String) });
    expect((await api("GET", `/api/v1/calls/${run.steps[1].callId}`)).body.call).toMatchObject({ status: "denied", policyRuleId: noSum.id, origin: "collection" });

    // The gateway, the server's own endpoint: not listed; called anyway, a JSON-RPC error (not HTTP 403) naming the rule.
    const client = await host(endpoint);
    const tools = await toolNames(client);
    expect(tools).toContain("echo");
    expect(tools).not.toContain("get-sum");
    const own = await callTool(client, "get-sum", { a: 3, b: 4 });
    expect(own.error).toMatchObject({ code: -32001, message: expect.stringContaining("No sums"), data: { ruleId: noSum.id } });

    // The aggregated endpoint: its names are prefixed, the rule matches the server's own name.
    const all = await host(aggregated, "governed-aggregate");
    const allTools = await toolNames(all);
    expect(allTools).toContain("web__echo");
    expect(allTools).not.toContain("web__get-sum");
    const viaAll = await callTool(all, "web__get-sum", { a: 4, b: 5 });
    expect(viaAll.error).toMatchObject({ code: -32001, message: expect.stringContaining("No sums"), data: { ruleId: noSum.id } });

    // History: every refusal, with the rule; the gateway's with the host.
    const denied = (await api("GET", "/api/v1/calls?status=denied&origin=any&limit=50")).body.items;
    expect(denied.filter((c: any) => c.policyRuleId === noSum.id && c.name === "get-sum")).toHaveLength(4);
    const gatewayCalls = denied.filter((c: any) => c.origin === "gateway");
    expect(gatewayCalls.map((c: any) => c.client).sort()).toEqual(["governed-aggregate 1.0.0", "governed-sdk 1.0.0"]);
    const full = (await api("GET", `/api/v1/calls/${gatewayCalls[0].id}`)).body.call;
    expect(full).toMatchObject({ status: "denied", policyRuleId: noSum.id, error: { kind: "policy", data: { ruleId: noSum.id } } });
    // The dashboard counts them.
    expect((await api("GET", "/api/v1/stats")).body.totals.denied).toBe(before + 4);
  });

  it("the same rule refuses a monitor's step: its run fails naming the rule, the call recorded denied with origin monitor", async () => {
    const noSum = await rule({ name: "No sums, scheduled or not", effect: "deny", tools: ["get-sum"] });
    const steps = [{ serverId, method: "tools/call", name: "get-sum", arguments: { a: 5, b: 6 } }];
    const collection = (await api("POST", "/api/v1/collections", { name: "governed on a schedule", steps })).body.collection;
    const monitor = (await api("POST", "/api/v1/monitors", { collectionId: collection.id, schedule: { everySeconds: 5 } })).body.monitor;
    try {
      let run: any;
      await waitFor(async () => (run = ((await api("GET", `/api/v1/monitors/${monitor.id}/runs`)).body.items as any[]).find((r) => r.status !== "running")) !== undefined, 30_000);
      expect(run.status).toBe("failed");
      expect(run.steps[0]).toMatchObject({ status: "failed", error: expect.stringContaining("No sums, scheduled or not"), callId: expect.any(String) });
      expect((await api("GET", `/api/v1/calls/${run.steps[0].callId}`)).body.call).toMatchObject({ status: "denied", policyRuleId: noSum.id, origin: "monitor" });
    } finally {
      expect((await api("DELETE", `/api/v1/monitors/${monitor.id}`)).status).toBe(204);
    }
  });

  it("an argument rule lets one call through and refuses another, naming the argument (the SDK client and the AI SDK's client)", async () => {
    const etc = await rule({ name: "Nothing under /etc", effect: "deny", tools: ["echo"], when: [{ path: "/message", op: "matches", value: "^/etc/" }] });
    const client = await host(endpoint);
    // Some arguments are allowed: the tool stays listed.
    expect(await toolNames(client)).toContain("echo");
    expect((await client.callTool({ name: "echo", arguments: { message: "/tmp/a" } })).content).toEqual([{ type: "text", text: "Echo: /tmp/a" }]);
    const refused = await callTool(client, "echo", { message: "/etc/passwd" });
    expect(refused.error).toMatchObject({ code: -32001, data: { ruleId: etc.id } });
    expect(refused.error.message).toContain("Nothing under /etc");
    expect(refused.error.message).toContain("/message");

    const ai = await createMCPClient({ transport: { type: "http", url: endpoint, headers: { Authorization: `Bearer ${token}` } } });
    try {
      const tools = await ai.tools();
      expect(Object.keys(tools)).toContain("echo");
      const ok = await tools.echo!.execute!({ message: "/tmp/a" }, { toolCallId: "1", messages: [] });
      expect(ok).toMatchObject({ content: [{ type: "text", text: "Echo: /tmp/a" }] });
      await expect(tools.echo!.execute!({ message: "/etc/passwd" }, { toolCallId: "2", messages: [] })).rejects.toThrow(/Nothing under \/etc/);
    } finally {
      await ai.close();
    }
    const denied = (await api("GET", "/api/v1/calls?status=denied&origin=gateway&limit=50")).body.items.filter((c: any) => c.policyRuleId === etc.id);
    expect(denied).toHaveLength(2);
  });

  it("a tool needing approval is listed and says so; unanswered, the call is refused and recorded as denied", async () => {
    const hold = await rule({ name: "Ask before sums", effect: "approve", tools: ["get-sum"], timeoutSeconds: 1 });
    const client = await host(endpoint);
    const sum = (await client.listTools()).tools.find((t) => t.name === "get-sum");
    expect(sum?._meta?.["switchboard/approval"]).toBe(true);
    expect(sum?.description).toMatch(/ \(needs a person's approval in Switchboard\)$/);
    const listed = (await api("GET", `/api/v1/servers/${serverId}/tools`)).body.items.find((t: any) => t.name === "get-sum");
    expect(listed._meta["switchboard/approval"]).toBe(true);

    const viaApi = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 1, b: 1 } });
    expect(viaApi.status).toBe(403);
    expect(viaApi.body.error).toMatchObject({ code: "policy_denied", details: { ruleId: hold.id, approvalId: expect.any(String) } });
    expect((await api("GET", `/api/v1/calls/${viaApi.body.error.details.callId}`)).body.call).toMatchObject({ status: "denied", policyRuleId: hold.id });

    const viaGateway = await callTool(client, "get-sum", { a: 2, b: 2 });
    expect(viaGateway.error).toMatchObject({ code: -32001, data: { ruleId: hold.id, status: "expired" } });
    expect(viaGateway.error.message).toContain("Ask before sums");
  });
});
