import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { openEvents, type EventStream } from "../support/events";
import { EVERYTHING, ROOT, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const TAP = path.join(ROOT, "tests/fixtures/stdio-tap.mjs");
const LONG = "trigger-long-running-operation";

describe("progress, cancellation and tasks through the agent relay (server-everything over stdio)", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let events: EventStream;
  let agent: RunningAgent | undefined;
  let id: string;
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-tap-")), "stdin.ndjson");
  const written = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

  beforeAll(async () => {
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    events = await openEvents(sb.url, owner.token);
    const paired = await pairNewAgent(api, sb.url, "relay-progress");
    agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [TAP, log, process.execPath, EVERYTHING, "stdio"] } } });
    await waitForAgent(api, paired.agentId, "online", 20_000, () => agent!.output());
    id = await serverId(api, "everything");
  });
  afterAll(async () => {
    events?.close();
    await agent?.stop("SIGKILL");
    await sb?.stop();
  });

  it("relays notifications/progress as workspace events", async () => {
    const requestId = "relay-progress-1";
    const res = await api("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 1, steps: 3 }, requestId });
    expect(res.body.call.status).toBe("ok");
    // The stream may deliver the last event just after the HTTP answer.
    await events.next((e) => e.type === "progress" && e.requestId === requestId && e.progress === 3);
    const mine = events.events.filter((e) => e.type === "progress" && e.requestId === requestId);
    expect(mine.map((e) => [e.progress, e.total])).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(res.body.call.progress).toEqual({ progress: 3, total: 3 });
  });

  it("cancel reaches the stdio process as notifications/cancelled", async () => {
    const requestId = "relay-cancel-1";
    const from = events.events.length;
    const running = api("POST", `/api/v1/servers/${id}/tools/call`, { name: LONG, arguments: { duration: 20, steps: 20 }, requestId });
    await events.next((e) => e.type === "progress" && e.requestId === requestId, { from });
    expect((await api("POST", "/api/v1/calls/cancel", { requestId })).body).toEqual({ cancelled: true });
    const { body } = await running;
    expect(body.call.status).toBe("cancelled");
    const call = written().filter((m) => m.method === "tools/call" && m.params?.name === LONG).at(-1);
    await waitFor(() => written().some((m) => m.method === "notifications/cancelled" && m.params?.requestId === call.id), 10_000);
  });

  it("runs simulate-research-query as a task and stores its result with nobody watching", async () => {
    events.close();
    const started = (await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "simulate-research-query", arguments: { topic: "relay" } })).body.call;
    expect(started).toMatchObject({ status: "pending", task: expect.objectContaining({ status: "working" }) });
    expect(written().some((m) => m.method === "tools/call" && m.params?.name === "simulate-research-query" && m.params?.task)).toBe(true);
    let call: any;
    await waitFor(async () => (call = (await api("GET", `/api/v1/calls/${started.id}`)).body.call).status !== "pending", 20_000);
    expect(call).toMatchObject({ status: "ok", task: expect.objectContaining({ status: "completed" }) });
    expect(call.result.content[0].text).toMatch(/Research Report: relay/);
  });

  it("cancels a task through the relay", async () => {
    const started = (await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "simulate-research-query", arguments: { topic: "stop" } })).body.call;
    expect((await api("POST", `/api/v1/calls/${started.id}/task/cancel`)).status).toBe(200);
    expect(written().some((m) => m.method === "tasks/cancel" && m.params?.taskId === started.task.id)).toBe(true);
    await waitFor(async () => (await api("GET", `/api/v1/calls/${started.id}`)).body.call.status === "cancelled", 10_000);
  });
});
