/**
 * Resource subscriptions through the agent relay: toggle-subscriber-updates on a relayed
 * server-everything reaches GET /api/v1/events as resource_updated, like over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { EVERYTHING, pairNewAgent, serverId as serverIdOf, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

describe("resource subscriptions through the agent relay", () => {
  let sb: ConsoleHandle;
  let agent: RunningAgent | undefined;
  let events: EventStream;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];

  beforeAll(async () => {
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    events = await openEvents(sb.url, owner.token);
  });
  afterAll(async () => {
    events?.close();
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("relays resources/updated for a subscribed URI and stops after unsubscribe", async () => {
    const paired = await pairNewAgent(api, sb.url, "laptop");
    agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
    const id = await serverIdOf(api, "everything");
    const connected = await api("POST", `/api/v1/servers/${id}/connect`);
    expect(connected.body.session.capabilities).toMatchObject({ resources: { subscribe: true } });

    const uri = ((await api("GET", `/api/v1/servers/${id}/resources`)).body.items as { uri: string }[])[0]!.uri;
    expect((await api("POST", `/api/v1/servers/${id}/resources/subscribe`, { uri })).body.uris).toEqual([uri]);
    const toggle = async () => {
      const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "toggle-subscriber-updates" });
      expect(res.body.call.status).toBe("ok");
      return JSON.stringify(res.body.call.result);
    };
    const from = events.events.length;
    expect(await toggle()).toMatch(/Started/);
    const event = await events.next((e) => e.type === "resource_updated" && e.serverId === id && e.uri === uri, { from });
    expect(Date.parse(String(event.at))).not.toBeNaN();
    expect(await toggle()).toMatch(/Stopped/);

    expect((await api("POST", `/api/v1/servers/${id}/resources/unsubscribe`, { uri })).body.uris).toEqual([]);
    const mark = events.events.length;
    expect(await toggle()).toMatch(/Started/);
    // Starting sends one update right away per subscribed URI, on the same ordered stream as the
    // tool's answer: had the URI still been subscribed, its event would be here by now.
    expect(await toggle()).toMatch(/Stopped/);
    expect(events.events.slice(mark).filter((e) => e.type === "resource_updated" && e.uri === uri)).toEqual([]);
  });
});
