/**
 * Logging over HTTP and through the agent relay: the level asked of the server, log lines stored
 * with the session and streamed live, the level filter and search of the logs API; plus traffic
 * recorded on the relay path.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { startEverything, type RunningServer } from "../support/servers";
import { EVERYTHING, pairNewAgent, serverId as serverIdOf, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const rank = (level: string) => LEVELS.indexOf(level);

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

/** Sets "notice", toggles simulated logging on, waits for a line, checks storage and filters, toggles it off. */
async function exerciseLogging(api: Api, events: EventStream, serverId: string) {
  const setLevel = await api("POST", `/api/v1/servers/${serverId}/log-level`, { level: "notice" });
  expect(setLevel.status).toBe(200);
  const sessionId = setLevel.body.sessionId as string;
  expect(setLevel.body).toEqual({ sessionId, level: "notice" });
  expect((await api("GET", `/api/v1/servers/${serverId}`)).body.server.session.logLevel).toBe("notice");

  const from = events.events.length;
  const on = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "toggle-simulated-logging" });
  expect(on.body.call.status).toBe("ok");
  // server-everything logs a random level every 5 s; at "notice" it must hold back debug and info.
  const event = await events.next((e) => e.type === "log" && e.serverId === serverId, { from, timeoutMs: 45_000 });
  const off = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "toggle-simulated-logging" });
  expect(off.body.call.status).toBe("ok");
  const line = event.log as { id: number; level: string; data: unknown; at: string };
  expect(event.sessionId).toBe(sessionId);
  expect(rank(line.level)).toBeGreaterThanOrEqual(rank("notice"));
  expect(String(line.data)).toMatch(/-level message|level-message/);

  const stored = await api("GET", `/api/v1/sessions/${sessionId}/logs`);
  expect(stored.status).toBe(200);
  expect(stored.body.items).toContainEqual(expect.objectContaining({ id: line.id, level: line.level, data: line.data, sessionId }));
  for (const item of stored.body.items) expect(rank(item.level)).toBeGreaterThanOrEqual(rank("notice"));

  const onlyHigh = await api("GET", `/api/v1/sessions/${sessionId}/logs?level=${line.level}`);
  expect(onlyHigh.body.items.map((i: { id: number }) => i.id)).toContain(line.id);
  for (const item of onlyHigh.body.items) expect(rank(item.level)).toBeGreaterThanOrEqual(rank(line.level));
  const above = LEVELS[rank(line.level) + 1];
  if (above) {
    const higher = await api("GET", `/api/v1/sessions/${sessionId}/logs?level=${above}`);
    expect(higher.body.items.map((i: { id: number }) => i.id)).not.toContain(line.id);
  }
  const search = await api("GET", `/api/v1/sessions/${sessionId}/logs?q=${encodeURIComponent(String(line.data).slice(0, 12))}`);
  expect(search.body.items.map((i: { id: number }) => i.id)).toContain(line.id);
  const none = await api("GET", `/api/v1/sessions/${sessionId}/logs?q=no-such-text-anywhere`);
  expect(none.body).toEqual({ items: [], nextCursor: null });
  return sessionId;
}

describe("logging", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let token: string;
  let events: EventStream;
  let agent: RunningAgent | undefined;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api, token } = await setupOwner(sb.url));
    events = await openEvents(sb.url, token);
  });
  afterAll(async () => {
    events?.close();
    await agent?.stop("SIGKILL");
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("over HTTP: sets the level, stores and streams log lines, filters by level and text", async () => {
    const id = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    await exerciseLogging(api, events, id);
  });

  it("refuses a level the schema does not know", async () => {
    const id = (await api("GET", "/api/v1/servers")).body.items[0].id;
    const res = await api("POST", `/api/v1/servers/${id}/log-level`, { level: "verbose" });
    expect(res.status).toBe(400);
  });

  it("through the agent relay: the same, and the relayed session's traffic is recorded", async () => {
    const paired = await pairNewAgent(api, sb.url, "laptop");
    agent = startAgent(paired.home, { mcpServers: { "relayed-everything": { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
    const id = await serverIdOf(api, "relayed-everything");
    const sessionId = await exerciseLogging(api, events, id);

    const traffic = await api("GET", `/api/v1/sessions/${sessionId}/traffic?method=logging/setLevel`);
    const [request, response] = traffic.body.items;
    expect(request).toMatchObject({ direction: "out", kind: "request", method: "logging/setLevel" });
    expect(response).toMatchObject({ direction: "in", kind: "response", method: "logging/setLevel", rpcId: request.rpcId });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    const notes = await api("GET", `/api/v1/sessions/${sessionId}/traffic?method=notifications/message&direction=in`);
    expect(notes.body.items.length).toBeGreaterThan(0);
    expect(notes.body.items[0]).toMatchObject({ kind: "notification", direction: "in", durationMs: null });
  });
});
