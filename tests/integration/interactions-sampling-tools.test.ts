import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { startFixture, type RunningServer } from "../support/servers";
import { nextPending, resultText } from "./interactions-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("sampling with tools: tool-use turns answered by a person", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let token: string;
  let fixture: RunningServer;
  let events: EventStream;
  let id: string;

  beforeAll(async () => {
    [sb, fixture] = await Promise.all([startConsole(), startFixture("sampling-tools-server.ts")]);
    ({ api, token } = await setupOwner(sb.url));
    id = (await api("POST", "/api/v1/servers", { name: "trips", url: fixture.url, timeoutMs: 60_000 })).body.server.id;
    events = await openEvents(sb.url, token);
  });
  afterAll(async () => {
    events?.close();
    await Promise.all([sb?.stop(), fixture?.stop()]);
  });

  const respond = (interactionId: string, body: unknown) => api("POST", `/api/v1/interactions/${interactionId}/respond`, body);

  it("a tool_use reply, then a text reply: the server's loop gets both, in order", async () => {
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "plan-trip", arguments: { city: "Lisbon" } });
    const first = await nextPending(api, events, from);
    expect(first.kind).toBe("sampling");
    expect(first.request.tools.map((t: { name: string }) => t.name)).toEqual(["get_weather"]);

    const unknown = await respond(first.id, { action: "reply", toolUses: [{ name: "get_stock_price", input: {} }] });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toContain("not one of the tools offered");
    const invalid = await respond(first.id, { action: "reply", toolUses: [{ name: "get_weather", input: { town: "Lisbon" } }] });
    expect(invalid.status).toBe(422);
    expect(JSON.stringify(invalid.body)).toMatch(/city/);

    const from2 = events.events.length;
    const used = await respond(first.id, { action: "reply", toolUses: [{ name: "get_weather", input: { city: "Lisbon", unit: "celsius" } }] });
    expect(used.status).toBe(200);
    expect(used.body.interaction.response).toMatchObject({ stopReason: "toolUse", content: [{ type: "tool_use", name: "get_weather" }] });
    const toolUseId = used.body.interaction.response.content[0].id as string;
    expect(toolUseId).toMatch(/^toolu_/);

    const second = await nextPending(api, events, from2);
    const messages = second.request.messages;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toMatchObject({ role: "assistant", content: [{ type: "tool_use", id: toolUseId }] });
    expect(messages[2]).toMatchObject({ role: "user", content: [{ type: "tool_result", toolUseId }] });
    const done = await respond(second.id, { action: "reply", text: "Pack sunglasses." });
    expect(done.body.interaction.response).toMatchObject({ stopReason: "endTurn", content: { type: "text", text: "Pack sunglasses." } });

    const transcript = JSON.parse(resultText((await call).body.call));
    expect(transcript).toHaveLength(2);
    expect(transcript[0].result).toMatchObject({ model: "human", stopReason: "toolUse", content: [{ type: "tool_use", id: toolUseId, input: { city: "Lisbon", unit: "celsius" } }] });
    expect(transcript[1].request[2].content[0].content[0].text).toBe("Sunny, 21 degrees in Lisbon");
    expect(transcript[1].result).toMatchObject({ stopReason: "endTurn", content: { type: "text", text: "Pack sunglasses." } });
  });

  it("toolChoice required refuses a text reply; toolChoice none refuses a tool call", async () => {
    const from = events.events.length;
    const call = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "plan-trip", arguments: { city: "Oslo", toolChoice: "required" } });
    const pending = await nextPending(api, events, from);
    const text = await respond(pending.id, { action: "reply", text: "Just pack a coat" });
    expect(text.status).toBe(422);
    expect(JSON.stringify(text.body)).toContain("requires a tool call");
    await respond(pending.id, { action: "decline" });
    expect(JSON.stringify((await call).body.call)).toMatch(/rejected/i);

    const from2 = events.events.length;
    const call2 = api("POST", `/api/v1/servers/${id}/tools/call`, { name: "plan-trip", arguments: { city: "Oslo", toolChoice: "none" } });
    const pending2 = await nextPending(api, events, from2);
    const tool = await respond(pending2.id, { action: "reply", toolUses: [{ name: "get_weather", input: { city: "Oslo" } }] });
    expect(tool.status).toBe(422);
    expect(JSON.stringify(tool.body)).toContain("forbids tool calls");
    await respond(pending2.id, { action: "reply", text: "A coat." });
    expect(JSON.parse(resultText((await call2).body.call))).toHaveLength(1);
  });

  it("a malformed tool_result sequence is refused with -32602 and recorded", async () => {
    const from = events.events.length;
    const text = resultText((await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "bad-sequence" })).body.call);
    expect(text).toMatch(/^refused: -32602 .*only tool results/);
    const event = await events.next((e) => e.type === "interaction" && e.status === "refused", { from, timeoutMs: 10_000 });
    const row = (await api("GET", `/api/v1/interactions/${event.interactionId as string}`)).body.interaction;
    expect(row).toMatchObject({ kind: "sampling", status: "refused" });
    expect(row.outcome).toMatch(/^Refused: Message 2/);
  });
});
