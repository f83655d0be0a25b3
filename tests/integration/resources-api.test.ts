import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream, type WorkspaceEvent } from "../support/events";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const TEXT_TEMPLATE = "demo://resource/dynamic/text/{resourceId}";

describe("completions and resource subscriptions against server-everything", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let token: string;
  let serverId: string;
  let events: EventStream;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    const res = await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 });
    serverId = res.body.server.id;
    const connected = await api("POST", `/api/v1/servers/${serverId}/connect`);
    expect(connected.body.session.capabilities).toMatchObject({ completions: {}, resources: { subscribe: true } });
    events = await openEvents(sb.url, token);
  });
  afterAll(async () => {
    events?.close();
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  const complete = (body: unknown) => api("POST", `/api/v1/servers/${serverId}/complete`, body);
  const values = async (body: unknown) => {
    const res = await complete(body);
    expect(res.status).toBe(200);
    return res.body.completion.values as string[];
  };
  const updated = (uri: string) => (e: WorkspaceEvent) => e.type === "resource_updated" && e.serverId === serverId && e.uri === uri;
  const toggleUpdates = async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "toggle-subscriber-updates", arguments: {} });
    expect(res.body.call.status).toBe("ok");
    return res.body.call.result.content[0].text as string;
  };

  it("completes prompt arguments, using the other arguments as context", async () => {
    const prompt = { type: "ref/prompt", name: "completable-prompt" };
    expect(await values({ ref: prompt, argument: { name: "department", value: "E" } })).toEqual(["Engineering"]);
    expect(await values({ ref: prompt, argument: { name: "department", value: "" } })).toEqual(["Engineering", "Sales", "Marketing", "Support"]);
    expect(await values({ ref: prompt, argument: { name: "name", value: "" }, context: { arguments: { department: "Sales" } } })).toEqual([
      "David",
      "Eve",
      "Frank",
    ]);
    expect(await values({ ref: prompt, argument: { name: "name", value: "" } })).toEqual([]);
    expect(await values({ ref: { type: "ref/prompt", name: "resource-prompt" }, argument: { name: "resourceType", value: "B" } })).toEqual(["Blob"]);
  });

  it("completes resource-template variables", async () => {
    const ref = { type: "ref/resource", uri: TEXT_TEMPLATE };
    expect(await values({ ref, argument: { name: "resourceId", value: "7" } })).toEqual(["7"]);
    expect(await values({ ref, argument: { name: "resourceId", value: "seven" } })).toEqual([]);
  });

  it("rejects malformed completion requests and reports unknown prompts as upstream errors", async () => {
    expect((await complete({ ref: { type: "ref/tool", name: "echo" }, argument: { name: "x", value: "" } })).status).toBe(400);
    expect((await complete({ ref: { type: "ref/prompt", name: "completable-prompt" } })).status).toBe(400);
    const unknown = await complete({ ref: { type: "ref/prompt", name: "no-such-prompt" }, argument: { name: "x", value: "" } });
    expect(unknown.status).toBe(502);
    expect(unknown.body.error.message).toMatch(/no-such-prompt|not found/i);
  });

  it("subscribes, relays resources/updated to GET /api/v1/events, and stops after unsubscribe", async () => {
    const resources = (await api("GET", `/api/v1/servers/${serverId}/resources`)).body.items as { uri: string }[];
    const [a, b] = resources.map((r) => r.uri);
    expect((await api("GET", `/api/v1/servers/${serverId}/resources/subscriptions`)).body).toMatchObject({ uris: [] });

    const sub = await api("POST", `/api/v1/servers/${serverId}/resources/subscribe`, { uri: a });
    expect(sub.status).toBe(200);
    expect(sub.body).toEqual({ sessionId: expect.any(String), uris: [a] });
    await events.next((e) => e.type === "resource_subscriptions" && Array.isArray(e.uris) && e.uris.includes(a));
    expect((await api("GET", `/api/v1/servers/${serverId}/resources/subscriptions`)).body.uris).toEqual([a]);

    // The tool starts updates and sends one right away for every subscribed URI.
    expect(await toggleUpdates()).toMatch(/^Started/);
    const event = await events.next(updated(a));
    expect(Date.parse(String(event.at))).not.toBeNaN();

    const unsub = await api("POST", `/api/v1/servers/${serverId}/resources/unsubscribe`, { uri: a });
    expect(unsub.body.uris).toEqual([]);
    const mark = events.events.length;
    await api("POST", `/api/v1/servers/${serverId}/resources/subscribe`, { uri: b });
    // Restarting the updates sends once more, in subscription order: a (if still subscribed) before b.
    expect(await toggleUpdates()).toMatch(/^Stopped/);
    expect(await toggleUpdates()).toMatch(/^Started/);
    await events.next(updated(b), { from: mark });
    expect(events.events.slice(mark).filter(updated(a))).toEqual([]);
    expect(await toggleUpdates()).toMatch(/^Stopped/);
  });

  it("refuses nonsense and forgets subscriptions with the session", async () => {
    expect((await api("POST", `/api/v1/servers/${serverId}/resources/subscribe`, {})).status).toBe(400);
    expect((await api("POST", `/api/v1/servers/nope/resources/subscribe`, { uri: "demo://x" })).status).toBe(404);
    const mark = events.events.length;
    expect((await api("POST", `/api/v1/servers/${serverId}/disconnect`)).status).toBeLessThan(300);
    await events.next((e) => e.type === "resource_subscriptions" && e.serverId === serverId && e.sessionId === null, { from: mark });
    expect((await api("GET", `/api/v1/servers/${serverId}/resources/subscriptions`)).body).toEqual({ sessionId: null, uris: [] });
    // Unsubscribing without a live session opens none.
    expect((await api("POST", `/api/v1/servers/${serverId}/resources/unsubscribe`, { uri: "demo://x" })).body).toEqual({ sessionId: null, uris: [] });
    expect((await api("GET", `/api/v1/servers/${serverId}`)).body.server.status).toBe("disconnected");
  });

  it("records re-reads after an update as automatic work, left out of history unless asked for", async () => {
    const uri = "demo://resource/static/document/architecture.md";
    const read = (origin?: string) => api("POST", `/api/v1/servers/${serverId}/resources/read`, { uri, ...(origin ? { origin } : {}) });
    expect((await read()).body.call.origin).toBe("user");
    expect((await read("subscription")).body.call.origin).toBe("subscription");
    expect((await read("subscription")).body.call.origin).toBe("subscription");
    expect((await read("app")).status).toBe(400);
    const listed = async (query: string) =>
      ((await api("GET", `/api/v1/calls?serverId=${serverId}&name=${encodeURIComponent(uri)}${query}`)).body.items as { origin: string }[]).map((c) => c.origin);
    expect(await listed("")).toEqual(["user"]);
    expect(await listed("&origin=any")).toEqual(["subscription", "subscription", "user"]);
    expect(await listed("&origin=subscription")).toEqual(["subscription", "subscription"]);
  });
});
