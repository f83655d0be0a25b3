import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

// A task call still pending when the console stops is followed again by the next process
// (the instance heartbeat claims it and follows it): it reaches a final state, never stuck pending or interrupted.
describe("task calls survive a console restart", () => {
  let sb: ConsoleHandle;
  let tasks: RunningServer;
  let everything: RunningServer;
  let api: Api;
  let tasksId: string;
  let everythingId: string;

  beforeAll(async () => {
    [sb, tasks, everything] = await Promise.all([startConsole(), startFixture("task-server.ts"), startEverything("streamableHttp")]);
    ({ api } = await setupOwner(sb.url));
    tasksId = (await api("POST", "/api/v1/servers", { name: "tasks", url: tasks.url, timeoutMs: 10_000 })).body.server.id;
    everythingId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 })).body.server.id;
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), tasks?.stop(), everything?.stop()]);
  });

  const settled = async (id: string, timeoutMs: number) => {
    let call: any;
    await waitFor(async () => (call = (await api("GET", `/api/v1/calls/${id}`)).body.call).status !== "pending", timeoutMs, () => JSON.stringify(call));
    return call;
  };

  it("stores the result of a task that outlived the console (and its MCP session)", async () => {
    const fixtureCall = (await api("POST", `/api/v1/servers/${tasksId}/tools/call`, { name: "slow-job", arguments: { ms: 3000 } })).body.call;
    expect(fixtureCall.status).toBe("pending");
    expect(fixtureCall.task).toMatchObject({ status: "working", pollIntervalMs: 200 });
    const researchCall = (await api("POST", `/api/v1/servers/${everythingId}/tools/call`, { name: "simulate-research-query", arguments: { topic: "restarts" } })).body.call;
    expect(researchCall.status).toBe("pending");
    expect(researchCall.task.id).toEqual(expect.any(String));

    await sb.stop();
    await sb.restart();
    expect(sb.logs()).toMatch(/2 task call\(s\) of a stopped console instance followed here/);

    const done = await settled(fixtureCall.id, 30_000);
    expect(done.status).toBe("ok");
    expect(done.task.status).toBe("completed");
    expect(done.result.content[0].text).toBe("Job done after 3000 ms");
    expect(done.finishedAt).not.toBeNull();

    // server-everything keeps tasks per MCP session: the new session cannot see the old task, and
    // the call says so instead of waiting forever.
    const research = await settled(researchCall.id, 30_000);
    expect(research.status).toBe("error");
    expect(research.error.message).toMatch(/no longer answers for this task/);
    expect(research.task.status).toBe("failed");
  });

  it("lists the resumed calls with their final task state", async () => {
    const items = (await api("GET", `/api/v1/servers/${tasksId}/tasks`)).body.items;
    expect(items[0]).toMatchObject({ status: "ok", task: expect.objectContaining({ status: "completed" }) });
  });
});
