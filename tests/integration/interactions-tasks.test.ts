import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { gatewayHost } from "../support/gateway-hosts";
import { startEverything, type RunningServer } from "../support/servers";
import { nextPending, resultText } from "./interactions-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// server-everything offers its -async tools only to clients that declare task-augmented sampling and
// elicitation (2025-11-25 tasks). It sends the request with `task`, gets a task back, polls the
// console's tasks/get every second and reads tasks/result once the task is completed.
describe("task-augmented sampling and elicitation (server-everything's -async tools)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let token: string;
  let everything: RunningServer;
  let events: EventStream;
  let id: string;
  let slug: string;
  const hosts: Client[] = [];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    ({ api, token } = owner);
    slug = owner.workspace.slug;
    id = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    events = await openEvents(sb.url, token);
  });
  afterAll(async () => {
    events?.close();
    await Promise.allSettled(hosts.map((h) => h.close()));
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  const call = (name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    api("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args, ...extra });

  it("lists all 19 tools, the two -async ones among them", async () => {
    const tools = (await api("GET", `/api/v1/servers/${id}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["trigger-sampling-request-async", "trigger-elicitation-request-async"]));
    expect(tools).toHaveLength(19);
  });

  it("sampling: the same pending interaction; the person's reply is the task's result", async () => {
    const from = events.events.length;
    const running = call("trigger-sampling-request-async", { prompt: "Say hi as a task", maxTokens: 20 });
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "sampling", status: "pending", serverName: "everything" });
    expect(JSON.stringify(pending.request.messages)).toContain("Say hi as a task");
    // The person sees the plain request: the task belongs to the console's side of the exchange.
    expect(pending.request).not.toHaveProperty("task");
    const ok = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "reply", text: "Hi from a person, via a task", model: "human" });
    expect(ok.body.interaction.status).toBe("answered");
    const done = (await running).body.call;
    expect(done.status).toBe("ok");
    const text = resultText(done);
    expect(text).toContain("[COMPLETED] Async sampling completed");
    expect(text).toContain("Hi from a person, via a task");
  });

  it("elicitation: accepted content goes back through tasks/result", async () => {
    const from = events.events.length;
    const running = call("trigger-elicitation-request-async");
    const pending = await nextPending(api, events, from);
    expect(pending).toMatchObject({ kind: "elicitation-form", status: "pending" });
    expect(pending.request.requestedSchema.required).toEqual(["name"]);
    expect(pending.request).not.toHaveProperty("task");
    const bad = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { favoriteColor: "Mauve" } });
    expect(bad.status).toBe(422);
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "accept", content: { name: "Ada Lovelace", favoriteColor: "Blue", agreeToTerms: true } });
    const text = resultText((await running).body.call);
    expect(text).toContain("[COMPLETED] User provided the requested information");
    expect(text).toContain("- Name: Ada Lovelace");
    expect(text).toContain("- Favorite Color: Blue");
  });

  it("elicitation: a decline completes the task with the decline", async () => {
    const from = events.events.length;
    const running = call("trigger-elicitation-request-async");
    const pending = await nextPending(api, events, from);
    await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "decline" });
    const text = resultText((await running).body.call);
    expect(text).toContain("[DECLINED]");
    expect(text).toContain('"action": "decline"');
  });

  it("a cancelled call takes its task's pending interaction with it", async () => {
    const from = events.events.length;
    const requestId = `task-cancel-${Date.now()}`;
    const running = call("trigger-elicitation-request-async", {}, { requestId });
    const pending = await nextPending(api, events, from);
    const cancelled = await api("POST", "/api/v1/calls/cancel", { requestId });
    expect(cancelled.body.cancelled).toBe(true);
    expect((await running).body.call.status).toBe("cancelled");
    let status = "";
    await waitFor(async () => (status = (await api("GET", `/api/v1/interactions/${pending.id}`)).body.interaction.status) === "cancelled", 10_000, () => status);
    const late = await api("POST", `/api/v1/interactions/${pending.id}/respond`, { action: "decline" });
    expect(late.status).toBe(409);
  });

  // A modern host on the server's endpoint, a legacy host's session on the aggregated endpoint: both are
  // served by the bridge. (A legacy host on a server's own endpoint is relayed message by message:
  // the server sees that host's own capabilities, so it offers the -async tools only to a host that
  // declares tasks itself, and the task exchange is between the two.)
  it("through the gateway: the host answers a plain sampling request, the console keeps the task", async () => {
    const exposure = await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true });
    const own = `${sb.url}${exposure.body.exposure.path}`;
    const aggregated = `${sb.url}/mcp/${encodeURIComponent(slug)}`;
    const gatewayToken = (await api("POST", "/api/v1/tokens", { name: "tasks", scopes: ["gateway"] })).body.secret;
    for (const [era, endpoint, tool] of [
      ["modern", own, "trigger-sampling-request-async"],
      ["legacy", aggregated, "everything__trigger-sampling-request-async"],
    ] as const) {
      const seen: Record<string, any>[] = [];
      const host = await gatewayHost(endpoint, gatewayToken, {
        name: `sampling-host-${era}`,
        era,
        sampling: (params) => {
          seen.push(params);
          return { role: "assistant", content: { type: "text", text: `the ${era} host's model answers` }, model: "host-model" };
        },
      });
      hosts.push(host);
      expect((await host.listTools()).tools.map((t) => t.name)).toContain(tool);
      const result = await host.callTool({ name: tool, arguments: { prompt: `from the ${era} host`, maxTokens: 20 } });
      const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(text).toContain("[COMPLETED] Async sampling completed");
      expect(text).toContain(`the ${era} host's model answers`);
      expect(seen).toHaveLength(1);
      expect(seen[0]).not.toHaveProperty("task");
      expect(JSON.stringify(seen[0]!.messages)).toContain(`from the ${era} host`);
    }
  });
});
