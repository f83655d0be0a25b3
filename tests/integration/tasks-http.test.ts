import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { startWireTap, type WireTap } from "../support/wire-tap";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("tasks (execution.taskSupport) over Streamable HTTP (server-everything)", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let tap: WireTap;
  let api: Api;
  let serverId: string;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    tap = await startWireTap(everything.baseUrl);
    ({ api } = await setupOwner(sb.url));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: tap.url, timeoutMs: 20_000 })).body.server.id;
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop(), tap?.stop()]);
  });

  const callOf = async (id: string) => (await api("GET", `/api/v1/calls/${id}`)).body.call;

  it("runs a taskSupport:required tool as a task and stores the result with nobody watching", async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "simulate-research-query", arguments: { topic: "tides" } });
    expect(res.status).toBe(200);
    const started = res.body.call;
    expect(started.status).toBe("pending");
    expect(started.task).toMatchObject({ status: "working", pollIntervalMs: 1000 });
    expect(started.task.id).toEqual(expect.any(String));
    const sent = tap.messages.find((m) => m.method === "tools/call" && (m.params as { name?: string }).name === "simulate-research-query");
    expect(sent?.params?.task).toBeDefined();

    const listed = (await api("GET", `/api/v1/servers/${serverId}/tasks`)).body.items;
    expect(listed[0]).toMatchObject({ id: started.id, status: "pending", task: expect.objectContaining({ id: started.task.id }) });

    // No browser, no event stream: the console's own poller finishes the call.
    let call: any;
    await waitFor(async () => (call = await callOf(started.id)).status !== "pending", 20_000);
    expect(call.status).toBe("ok");
    expect(call.task.status).toBe("completed");
    expect(call.result.content[0].text).toMatch(/Research Report: tides/);
    expect(tap.messages.some((m) => m.method === "tasks/get")).toBe(true);
    expect(tap.messages.some((m) => m.method === "tasks/result")).toBe(true);
  });

  it("cancels a running task with tasks/cancel", async () => {
    const started = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "simulate-research-query", arguments: { topic: "moons" } })).body.call;
    const res = await api("POST", `/api/v1/calls/${started.id}/task/cancel`);
    expect(res.status).toBe(200);
    expect(tap.messages.some((m) => m.method === "tasks/cancel" && m.params?.taskId === started.task.id)).toBe(true);
    let call: any;
    await waitFor(async () => (call = await callOf(started.id)).status !== "pending", 10_000);
    expect(call.status).toBe("cancelled");
    expect(call.task.status).toBe("cancelled");
    expect((await api("POST", `/api/v1/calls/${started.id}/task/cancel`)).status).toBe(409);
  });

  it("cancels a task call through POST /calls/cancel by its requestId too", async () => {
    const requestId = "task-cancel-by-request-id";
    const started = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "simulate-research-query", arguments: { topic: "x" }, requestId })).body.call;
    expect((await api("POST", "/api/v1/calls/cancel", { requestId })).body).toEqual({ cancelled: true });
    await waitFor(async () => (await callOf(started.id)).status === "cancelled", 10_000);
  });

  it("never task-augments a tool without taskSupport", async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "hi" }, task: true });
    expect(res.status).toBe(422);
    const plain = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "hi" } });
    expect(plain.body.call).toMatchObject({ status: "ok", task: null });
    const echo = tap.messages.filter((m) => m.method === "tools/call" && (m.params as { name?: string }).name === "echo");
    expect(echo.every((m) => m.params?.task === undefined)).toBe(true);
  });
});
