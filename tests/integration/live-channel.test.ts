/**
 * The live channel: event ids, resumption with Last-Event-ID after a dropped stream (mid-call),
 * `reset` when the position is unknown, and several watchers getting the same events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents } from "../support/events";
import { startEverything, type RunningServer } from "../support/servers";

describe("live channel", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let token: string;
  let serverId: string;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    expect((await api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("gives every event an increasing id; a stream reconnecting mid-call with Last-Event-ID gets every event it missed, in order, once", async () => {
    const steady = await openEvents(sb.url, token);
    const dropped = await openEvents(sb.url, token);
    await api("POST", `/api/v1/servers/${serverId}/ping`);
    await dropped.next((e) => e.type === "health");
    const lastSeen = dropped.ids[dropped.ids.length - 1]!;
    expect(lastSeen).toMatch(/^[0-9a-z]+-\d+$/);
    dropped.close();

    // While the stream is down: a long call runs, and events happen during it.
    const call = api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "trigger-long-running-operation", arguments: { duration: 2, steps: 4 } });
    for (let i = 0; i < 5; i++) await api("POST", `/api/v1/servers/${serverId}/ping`);
    const resumed = await openEvents(sb.url, token, { lastEventId: lastSeen });
    for (let i = 0; i < 2; i++) await api("POST", `/api/v1/servers/${serverId}/ping`);
    expect((await call).body.call.status).toBe("ok");
    await api("POST", `/api/v1/servers/${serverId}/ping`);

    // The uninterrupted stream is the reference: after `lastSeen` both must hold the same events.
    const from = steady.ids.indexOf(lastSeen) + 1;
    expect(from).toBeGreaterThan(0);
    const healthCount = (events: { type: string }[]) => events.filter((e) => e.type === "health").length;
    await waitFor(() => healthCount(steady.events.slice(from)) === 8 && healthCount(resumed.events) === 8);
    const expected = steady.ids.slice(from);
    expect(resumed.ids).toEqual(expected);
    expect(resumed.events).toEqual(steady.events.slice(from));
    expect(new Set(resumed.ids).size).toBe(resumed.ids.length);
    const seqs = resumed.ids.map((id) => Number(id!.split("-")[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(resumed.events.filter((e) => e.type === "health")).toHaveLength(8);
    steady.close();
    resumed.close();
  });

  it("answers an unknown position (another console run, or trimmed away) with a reset event", async () => {
    const stream = await openEvents(sb.url, token, { lastEventId: "zzzz-1" });
    await api("POST", `/api/v1/servers/${serverId}/ping`);
    await stream.next((e) => e.type === "health");
    expect(stream.events[0]).toEqual({ type: "reset" });
    expect(stream.ids[0]).toBeNull();
    stream.close();
  });

  it("sends the same events to several watchers, and a session stream carries only its session", async () => {
    const session = (await api("GET", `/api/v1/servers/${serverId}`)).body.server.session;
    const tabs = await Promise.all([openEvents(sb.url, token), openEvents(sb.url, token)]);
    const sessionStream = await openEvents(sb.url, token, { path: `/api/v1/sessions/${session.id}/events` });
    await api("POST", `/api/v1/servers/${serverId}/ping`);
    await Promise.all([...tabs, sessionStream].map((s) => s.next((e) => e.type === "health")));
    expect(tabs[0]!.ids).toEqual(tabs[1]!.ids);
    expect(sessionStream.events.every((e) => e.serverId === serverId)).toBe(true);
    expect(sessionStream.ids).toContain(tabs[0]!.ids.find((_, i) => tabs[0]!.events[i]!.type === "health"));
    for (const s of [...tabs, sessionStream]) s.close();
    const other = await api("GET", `/api/v1/sessions/does-not-exist/events`);
    expect(other.status).toBe(404);
  });
});
