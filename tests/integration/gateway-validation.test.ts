import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// server-everything's get-sum takes { a: number, b: number }. The gateway checks a call's arguments
// against that schema with the API's validator, on every path: a legacy host's relayed session, a
// modern host on the server's endpoint, both eras on the aggregated endpoint.
describe("the gateway validates tools/call arguments against the tool's input schema, as the API does", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let everything: RunningServer;
  let serverId: string;
  const hosts: Record<string, { client: Client; tool: string }> = {};

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    serverId = (await api("POST", "/api/v1/servers", { name: "sums", url: everything.url })).body.server.id;
    const { path } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
    const token = (await api("POST", "/api/v1/tokens", { name: "validating", scopes: ["gateway"] })).body.secret as string;
    const aggregated = `${sb.url}/mcp/${encodeURIComponent(owner.workspace.slug)}`;
    hosts["legacy, server endpoint (relay)"] = { client: await gatewayHost(`${sb.url}${path}`, token, { era: "legacy", name: "relay-host" }), tool: "get-sum" };
    hosts["modern, server endpoint"] = { client: await gatewayHost(`${sb.url}${path}`, token, { name: "modern-host" }), tool: "get-sum" };
    hosts["modern, aggregated endpoint"] = { client: await gatewayHost(aggregated, token, { name: "modern-aggregate" }), tool: "sums__get-sum" };
    hosts["legacy, aggregated endpoint"] = { client: await gatewayHost(aggregated, token, { era: "legacy", name: "legacy-aggregate" }), tool: "sums__get-sum" };
  });
  afterAll(async () => {
    await Promise.allSettled(Object.values(hosts).map(({ client }) => client.close()));
    await sb?.stop();
    await everything?.stop();
  });

  const refusal = async (client: Client, name: string, args: Record<string, unknown>) => {
    try {
      await client.callTool({ name, arguments: args });
    } catch (err) {
      return err as { code?: number; message: string; data?: { errors?: unknown } };
    }
    throw new Error(`${name} was not refused`);
  };

  it("answers -32602 naming the failing path, the problems in data.errors; the API answers 422 with the same problems", async () => {
    const api422 = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 1, b: "two" } });
    expect(api422.status).toBe(422);
    const problems = api422.body.error.details.errors;
    expect(problems).toEqual([{ path: "/b", message: "must be number" }]);
    for (const [how, { client, tool }] of Object.entries(hosts)) {
      const err = await refusal(client, tool, { a: 1, b: "two" });
      expect(err.code, how).toBe(-32602);
      expect(err.message, how).toContain("Arguments do not match the tool's input schema: arguments/b: must be number");
      expect(err.data?.errors, how).toEqual(problems);
    }
    // A missing argument names its path too.
    const missing = await refusal(hosts["modern, aggregated endpoint"]!.client, "sums__get-sum", { a: 1 });
    expect(missing.message).toContain("arguments/b: must have required property 'b'");
    const apiMissing = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 1 } });
    expect(missing.data?.errors).toEqual(apiMissing.body.error.details.errors);
  });

  it("lets matching arguments through, and records only the calls that went upstream (the API records no 422 either)", async () => {
    for (const [how, { client, tool }] of Object.entries(hosts)) {
      const result = await client.callTool({ name: tool, arguments: { a: 20, b: 22 } });
      expect(JSON.stringify(result.content), how).toContain("42");
    }
    const calls = (await api("GET", `/api/v1/calls?serverId=${serverId}`)).body.items as { name: string; origin: string; client: string | null; status: string }[];
    const sums = calls.filter((c) => c.name === "get-sum");
    // One per host (its good call), none from the refused ones, none from the API's 422s.
    expect(sums.map((c) => c.client).sort()).toEqual(["legacy-aggregate 2.0.0", "modern-aggregate 2.0.0", "modern-host 2.0.0", "relay-host 2.0.0"]);
    expect(sums.every((c) => c.origin === "gateway" && c.status !== "error")).toBe(true);
  });
});
