import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { startWireTap, type WireTap } from "../support/wire-tap";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const LONG = "trigger-long-running-operation";

describe("progress, cancellation and timeouts over Streamable HTTP (server-everything)", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let tap: WireTap;
  let api: Api;
  let events: EventStream;
  let serverId: string;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    tap = await startWireTap(everything.baseUrl);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    events = await openEvents(sb.url, owner.token);
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: tap.url, timeoutMs: 20_000 })).body.server.id;
  });
  afterAll(async () => {
    events?.close();
    await Promise.all([sb?.stop(), everything?.stop(), tap?.stop()]);
  });

  it("publishes each notifications/progress as a workspace event and keeps the latest on the call", async () => {
    const requestId = "progress-http-1";
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: LONG, arguments: { duration: 1, steps: 4 }, requestId });
    expect(res.status).toBe(200);
    expect(res.body.call.status).toBe("ok");
    // The stream may deliver the last event just after the HTTP answer.
    await events.next((e) => e.type === "progress" && e.requestId === requestId && e.progress === 4);
    const mine = events.events.filter((e) => e.type === "progress" && e.requestId === requestId);
    expect(mine.map((e) => e.progress)).toEqual([1, 2, 3, 4]);
    expect(mine[0]).toMatchObject({ serverId, callId: res.body.call.id, total: 4 });
    expect(res.body.call.progress).toEqual({ progress: 4, total: 4 });
    const sent = tap.messages.find((m) => m.method === "tools/call" && (m.params as { name?: string }).name === LONG);
    expect((sent?.params?._meta as { progressToken?: unknown })?.progressToken).toBeDefined();
  });

  it("cancels mid-call: the call ends cancelled and the server receives notifications/cancelled", async () => {
    const requestId = "progress-http-cancel";
    const from = events.events.length;
    const running = api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: LONG, arguments: { duration: 20, steps: 20 }, requestId });
    await events.next((e) => e.type === "progress" && e.requestId === requestId, { from });
    const cancel = await api("POST", "/api/v1/calls/cancel", { requestId });
    expect(cancel.body).toEqual({ cancelled: true });
    const { body } = await running;
    expect(body.call.status).toBe("cancelled");
    expect(body.call.error.kind).toBe("cancelled");
    expect(body.call.durationMs).toBeLessThan(15_000);
    const call = tap.messages.filter((m) => m.method === "tools/call" && (m.params as { name?: string }).name === LONG).at(-1)!;
    const cancelled = await tap.next((m) => m.method === "notifications/cancelled" && m.params?.requestId === call.id);
    expect(cancelled.params).toMatchObject({ requestId: call.id });
    expect((await api("GET", `/api/v1/calls/${body.call.id}`)).body.call.status).toBe("cancelled");
  });

  it("restarts the timeout on each progress notification", async () => {
    // 3 s of work, progress every 0.5 s, a 1.5 s timeout: only the reset lets it finish.
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: LONG, arguments: { duration: 3, steps: 6 }, timeoutMs: 1500 });
    expect(res.body.call.status).toBe("ok");
    expect(res.body.call.durationMs).toBeGreaterThan(2900);
  });

  it("stops at the hard maximum however often progress arrives", async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, {
      name: LONG,
      arguments: { duration: 8, steps: 16 },
      timeoutMs: 1500,
      maxTotalTimeoutMs: 2500,
    });
    expect(res.body.call.status).toBe("timeout");
    expect(res.body.call.error.kind).toBe("timeout");
    expect(res.body.call.durationMs).toBeGreaterThanOrEqual(2400);
    expect(res.body.call.durationMs).toBeLessThan(6000);
    expect(res.body.call.progress.total).toBe(16);
  });

  it("stops at the server's own hard maximum (maxTotalTimeoutMs set with PATCH)", async () => {
    expect((await api("PATCH", `/api/v1/servers/${serverId}`, { maxTotalTimeoutMs: 500 })).status).toBe(400);
    const patched = await api("PATCH", `/api/v1/servers/${serverId}`, { maxTotalTimeoutMs: 3000 });
    expect(patched.status).toBe(200);
    expect(patched.body.server.maxTotalTimeoutMs).toBe(3000);
    try {
      // Progress every 0.5 s keeps resetting the 1.5 s timeout; only the server's 3 s cap stops it.
      const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: LONG, arguments: { duration: 10, steps: 20 }, timeoutMs: 1500 });
      expect(res.body.call.status).toBe("timeout");
      expect(res.body.call.error.kind).toBe("timeout");
      expect(res.body.call.durationMs).toBeGreaterThanOrEqual(2900);
      expect(res.body.call.durationMs).toBeLessThan(6000);
      expect(res.body.call.progress.progress).toBeGreaterThanOrEqual(3);
    } finally {
      const cleared = await api("PATCH", `/api/v1/servers/${serverId}`, { maxTotalTimeoutMs: null });
      expect(cleared.body.server.maxTotalTimeoutMs).toBeNull();
    }
  });

  it("times out without progress at the per-call timeout", async () => {
    // One step of 3 s: no progress before the 1 s timeout.
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: LONG, arguments: { duration: 3, steps: 1 }, timeoutMs: 1000 });
    expect(res.body.call.status).toBe("timeout");
    expect(res.body.call.durationMs).toBeLessThan(2500);
  });

  describe("a modern-era server (2026-07-28)", () => {
    let modern: RunningServer;
    let modernId: string;
    beforeAll(async () => {
      modern = await startFixture("progress-server.ts");
      modernId = (await api("POST", "/api/v1/servers", { name: "modern-progress", url: modern.url, timeoutMs: 20_000 })).body.server.id;
    });
    afterAll(() => modern?.stop());

    it("carries progress messages", async () => {
      const requestId = "modern-progress-1";
      const res = await api("POST", `/api/v1/servers/${modernId}/tools/call`, { name: "slow-report", arguments: { steps: 3, stepMs: 50 }, requestId });
      expect(res.body.call.status).toBe("ok");
      await events.next((e) => e.type === "progress" && e.requestId === requestId && e.progress === 3);
      const mine = events.events.filter((e) => e.type === "progress" && e.requestId === requestId);
      expect(mine.at(-1)).toMatchObject({ progress: 3, total: 3, message: "Step 3 of 3: compiling section 3" });
      expect(res.body.call.progress).toEqual({ progress: 3, total: 3, message: "Step 3 of 3: compiling section 3" });
    });

    it("cancels by closing the request's stream: the server's handler sees the abort", async () => {
      const requestId = "modern-cancel-1";
      const from = events.events.length;
      const running = api("POST", `/api/v1/servers/${modernId}/tools/call`, { name: "slow-report", arguments: { steps: 50, stepMs: 300 }, requestId });
      await events.next((e) => e.type === "progress" && e.requestId === requestId, { from });
      await api("POST", "/api/v1/calls/cancel", { requestId });
      expect((await running).body.call.status).toBe("cancelled");
      await waitFor(async () => {
        const list = await api("POST", `/api/v1/servers/${modernId}/tools/call`, { name: "cancellations" });
        return JSON.parse(list.body.call.result.content[0].text).length === 1;
      }, 10_000);
    });
  });
});
