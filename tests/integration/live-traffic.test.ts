/**
 * Traffic recording (paired request/response with duration, filters, cursor pages, NDJSON export,
 * no secrets), ping latency, and a session marked unhealthy when its server stops answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

const SECRET = "sekret-header-value-8f3a91";

describe("traffic, ping and health", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let doomed: RunningServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let token: string;
  let serverId: string;
  let sessionId: string;

  beforeAll(async () => {
    [sb, everything, doomed] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_HEALTH_INTERVAL_MS: "300", SWITCHBOARD_HEALTH_TIMEOUT_MS: "2000" } }),
      startEverything("streamableHttp"),
      startEverything("streamableHttp"),
    ]);
    ({ api, token } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, headers: { "X-Api-Key": SECRET } })).body.server.id;
    sessionId = (await api("POST", `/api/v1/servers/${serverId}/connect`)).body.session.id;
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop(), doomed?.stop()]);
  });

  it("records a call's request and response, paired by id, with the duration", async () => {
    const call = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "hello traffic" } });
    expect(call.body.call.status).toBe("ok");
    const res = await api("GET", `/api/v1/sessions/${sessionId}/traffic?method=tools/call`);
    expect(res.status).toBe(200);
    const [request, response] = res.body.items;
    expect(request).toMatchObject({ sessionId, direction: "out", kind: "request", method: "tools/call", durationMs: null, truncated: false });
    expect(response).toMatchObject({ sessionId, direction: "in", kind: "response", method: "tools/call", rpcId: request.rpcId });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(request.body)).toMatchObject({ jsonrpc: "2.0", method: "tools/call", params: { name: "echo", arguments: { message: "hello traffic" } } });
    expect(JSON.parse(response.body).result.content[0].text).toContain("hello traffic");
    expect(request.size).toBe(Buffer.byteLength(request.body));

    // The handshake is there too, in order, and filters work.
    const all = (await api("GET", `/api/v1/sessions/${sessionId}/traffic`)).body.items;
    // The era probe (server/discover) comes first on a first connect, then the legacy handshake.
    expect(all[0]).toMatchObject({ direction: "out", kind: "request" });
    const handshake = all.filter((m: { method: string | null }) => m.method === "initialize");
    expect(handshake.map((m: { direction: string; kind: string }) => [m.direction, m.kind])).toEqual([["out", "request"], ["in", "response"]]);
    expect(all.map((m: { id: number }) => m.id)).toEqual([...all.map((m: { id: number }) => m.id)].sort((a, b) => a - b));
    const incoming = (await api("GET", `/api/v1/sessions/${sessionId}/traffic?direction=in`)).body.items;
    expect(incoming.length).toBeGreaterThan(0);
    expect(incoming.every((m: { direction: string }) => m.direction === "in")).toBe(true);
    const found = (await api("GET", `/api/v1/sessions/${sessionId}/traffic?q=hello%20traffic`)).body.items;
    expect(found.map((m: { id: number }) => m.id)).toEqual(expect.arrayContaining([request.id, response.id]));

    // Cursor pages: two at a time cover the same messages, without overlap.
    const paged: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: number }[]; nextCursor: string | null } } = await api("GET", `/api/v1/sessions/${sessionId}/traffic?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      paged.push(...page.body.items.map((m) => m.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    const again = (await api("GET", `/api/v1/sessions/${sessionId}/traffic`)).body.items.map((m: { id: number }) => m.id);
    expect(paged).toEqual(again.slice(0, paged.length));
  });

  it("lists newest first with ?order=newest, paging towards the oldest, and refuses an unknown order", async () => {
    const oldest = (await api("GET", `/api/v1/sessions/${sessionId}/traffic?limit=1000`)).body.items.map((m: { id: number }) => m.id);
    const newest: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: { id: number }[]; nextCursor: string | null } } = await api("GET", `/api/v1/sessions/${sessionId}/traffic?order=newest&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      newest.push(...page.body.items.map((m) => m.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    // Health pings (every 300 ms here) may land between the two reads: they can only come first.
    const last = oldest[oldest.length - 1];
    const later = newest.filter((id) => id > last);
    expect(newest.slice(0, later.length)).toEqual(later);
    expect(newest.slice(later.length)).toEqual([...oldest].reverse());
    // A message recorded after the first page shows at the top of a fresh first page.
    await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "newest one" } });
    const top = (await api("GET", `/api/v1/sessions/${sessionId}/traffic?order=newest&limit=2&method=tools/call`)).body.items;
    expect(JSON.parse(top[0].body).result.content[0].text).toContain("newest one");
    expect(top[0].id).toBeGreaterThan(top[1].id);
    const bad = await api("GET", `/api/v1/sessions/${sessionId}/traffic?order=sideways`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBeTruthy();
  });

  it("exports NDJSON, and secrets never appear: header values, even when echoed, and token-like fields", async () => {
    const echoed = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: `my key is ${SECRET}` } });
    expect(echoed.body.call.status).toBe("ok");
    const res = await fetch(`${sb.url}/api/v1/sessions/${sessionId}/traffic?format=ndjson`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    const text = await res.text();
    const lines = text.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.find((l) => l.method === "initialize")).toMatchObject({ direction: "out", kind: "request", message: { jsonrpc: "2.0", method: "initialize" } });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(token);
    expect(text).toContain("my key is [redacted]");
    const listed = await api("GET", `/api/v1/sessions/${sessionId}/traffic?limit=1000`);
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    const filtered = await fetch(`${sb.url}/api/v1/sessions/${sessionId}/traffic?format=ndjson&method=tools/call&direction=out`, { headers: { authorization: `Bearer ${token}` } });
    const calls = (await filtered.text()).trim().split("\n").map((line) => JSON.parse(line));
    const echoes = ["hello traffic", "newest one", `my key is [redacted]`];
    expect(calls.length).toBe(echoes.length); // the three echo calls of this file
    expect(calls.map((c) => c.message.params.arguments.message).sort()).toEqual([...echoes].sort());
    expect(calls.every((c) => c.method === "tools/call" && c.direction === "out")).toBe(true);
  });

  it("answers another workspace's or an unknown session with 404", async () => {
    expect((await api("GET", `/api/v1/sessions/nope/traffic`)).status).toBe(404);
    expect((await api("GET", `/api/v1/sessions/nope/logs`)).status).toBe(404);
  });

  it("pings with a measured latency, kept on the session", async () => {
    const ping = await api("POST", `/api/v1/servers/${serverId}/ping`);
    expect(ping.status).toBe(200);
    expect(ping.body.ping).toMatchObject({ sessionId, health: "healthy", error: null });
    expect(ping.body.ping.latencyMs).toBeGreaterThanOrEqual(0);
    const session = (await api("GET", `/api/v1/servers/${serverId}`)).body.server.session;
    expect(session).toMatchObject({ id: sessionId, health: "healthy", healthError: null });
    expect(session.lastPingMs).toBeGreaterThanOrEqual(0);
    const sessions = (await api("GET", `/api/v1/servers/${serverId}/sessions`)).body.items;
    expect(sessions[0]).toMatchObject({ id: sessionId });
  });

  it("marks a session whose server stopped answering unhealthy, with the error", async () => {
    const id = (await api("POST", "/api/v1/servers", { name: "doomed", url: doomed.url })).body.server.id;
    await api("POST", `/api/v1/servers/${id}/connect`);
    await waitFor(async () => (await api("GET", `/api/v1/servers/${id}`)).body.server.session?.health === "healthy", 15_000);
    await doomed.stop();
    let server: any;
    await waitFor(async () => {
      server = (await api("GET", `/api/v1/servers/${id}`)).body.server;
      return server.session?.health === "unhealthy" || server.status === "error";
    }, 20_000);
    const session = server.session;
    expect(session.health === "unhealthy" ? session.healthError : session.error).toMatch(/\S/);
    expect(server.status === "connected" && session.health === "healthy").toBe(false);
  });
});
