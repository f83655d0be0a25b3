/**
 * Every API answer says where its time went (`Server-Timing`), and a recorded call keeps its
 * stages with the upstream split into network and server (issue 41, "a latency budget per call").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServerTiming } from "@/lib/core/timing";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

const CALL_STAGES = ["route", "auth", "session", "connect", "validation", "journal", "upstream", "render"];

describe("Server-Timing", () => {
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

  /** A request with the owner's token: status, parsed Server-Timing (null when absent) and body. */
  async function send(method: string, route: string, body?: unknown, auth = true) {
    const res = await fetch(`${sb.url}${route}`, {
      method,
      headers: { origin: sb.url, ...(auth ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const header = res.headers.get("server-timing");
    const text = await res.text();
    return { status: res.status, timing: header === null ? null : parseServerTiming(header), body: text ? JSON.parse(text) : null };
  }

  const callTool = (args: Record<string, unknown>) => send("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: args });
  const sumOf = (timing: Record<string, number>) => CALL_STAGES.reduce((sum, stage) => sum + (timing[stage] ?? 0), 0);

  it("answers a tools/call with every stage, the stages adding up to the total", async () => {
    const ratios: number[] = [];
    for (let i = 0; i < 20; i++) {
      const { status, timing } = await callTool({ message: `timed ${i}` });
      expect(status).toBe(200);
      expect(Object.keys(timing!).sort()).toEqual([...CALL_STAGES, "total"].sort());
      for (const stage of CALL_STAGES) expect(timing![stage]).toBeGreaterThanOrEqual(0);
      // Disjoint stages inside the measured span: never more than the total (header rounding aside).
      expect(sumOf(timing!)).toBeLessThanOrEqual(timing!.total! + 0.5);
      ratios.push(sumOf(timing!) / timing!.total!);
    }
    ratios.sort((a, b) => a - b);
    expect(ratios[Math.floor(ratios.length / 2)]).toBeGreaterThanOrEqual(0.9);
  });

  it("times error answers too: invalid arguments, an unknown server, no credentials", async () => {
    const invalid = await callTool({ message: 42 });
    expect(invalid.status).toBe(422);
    expect(invalid.timing).toMatchObject({ route: expect.any(Number), auth: expect.any(Number), session: expect.any(Number), validation: expect.any(Number), total: expect.any(Number) });
    expect(invalid.timing!.upstream).toBeUndefined();

    const missing = await send("POST", "/api/v1/servers/no-such-server/tools/call", { name: "echo", arguments: { message: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.timing).toMatchObject({ route: expect.any(Number), auth: expect.any(Number), total: expect.any(Number) });

    const anonymous = await send("GET", "/api/v1/calls", undefined, false);
    expect(anonymous.status).toBe(401);
    expect(anonymous.timing).toMatchObject({ route: expect.any(Number), auth: expect.any(Number), render: expect.any(Number), total: expect.any(Number) });

    // Not only calls: any API answer says where its time went.
    const list = await send("GET", "/api/v1/calls?limit=1");
    expect(list.status).toBe(200);
    expect(list.timing).toMatchObject({ route: expect.any(Number), auth: expect.any(Number), render: expect.any(Number), total: expect.any(Number) });
  });

  it("records the stages with the call, upstream split by the session's last ping", async () => {
    const ping = await api("POST", `/api/v1/servers/${serverId}/ping`);
    expect(ping.body.ping.health).toBe("healthy");
    const { status, timing, body } = await callTool({ message: "recorded" });
    expect(status).toBe(200);
    const answered = body.call.timing;
    const recorded = (await api("GET", `/api/v1/calls/${body.call.id}`)).body.call.timing;
    expect(recorded).toEqual(answered);
    expect(Object.keys(recorded.stages).sort()).toEqual(["auth", "connect", "journal", "route", "session", "upstream", "validation"]);
    // The same measurements as the header (the header's journal adds the completion's write, and its render).
    for (const stage of ["route", "auth", "session", "validation", "upstream"]) expect(recorded.stages[stage]).toBeCloseTo(timing![stage]!, 1);
    expect(recorded.stages.journal).toBeLessThanOrEqual(timing!.journal! + 0.01);
    expect(recorded.totalMs).toBeLessThanOrEqual(timing!.total! + 0.01);
    expect(sumOf(recorded.stages)).toBeLessThanOrEqual(recorded.totalMs + 0.1);

    expect(recorded.networkSource).toBe("ping");
    expect(recorded.networkMs).toBeGreaterThanOrEqual(0);
    expect(recorded.networkMs).toBeLessThanOrEqual(Math.min(ping.body.ping.latencyMs, recorded.stages.upstream) + 0.01);
    expect(recorded.networkMs + recorded.serverMs).toBeCloseTo(recorded.stages.upstream, 1);
  });

  it("answers timing: null for a call recorded before the console kept it", async () => {
    const { body } = await callTool({ message: "old-style" });
    expect(body.call.timing).not.toBeNull();
    await sb.db.run(`UPDATE "call" SET timing = NULL WHERE id = ?`, body.call.id);
    const read = await api("GET", `/api/v1/calls/${body.call.id}`);
    expect(read.status).toBe(200);
    expect(read.body.call.timing).toBeNull();
  });
});
