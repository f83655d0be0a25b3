import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** Issue 12 §2: instances with heartbeats; start-up never interrupts another live instance's calls. */
describe("several console instances on one database", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-instances-"));
  const env = { SWITCHBOARD_HEARTBEAT_MS: "300" };
  let a: ConsoleHandle;
  let b: ConsoleHandle | undefined;
  let everything: RunningServer;
  let apiA: Api;
  let apiB: Api;
  let serverId: string;
  let token: string;

  const longCall = (api: Api, requestId: string, duration: number) =>
    api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "trigger-long-running-operation", arguments: { duration, steps: duration }, requestId });
  const callByRequest = async (api: Api, requestId: string) =>
    ((await api("GET", "/api/v1/calls?limit=50")).body.items as { requestId: string; status: string }[]).find((c) => c.requestId === requestId);

  beforeAll(async () => {
    [a, everything] = await Promise.all([startConsole({ dataDir, env }), startEverything("streamableHttp")]);
    const owner = await setupOwner(a.url);
    token = owner.token;
    apiA = owner.api;
    serverId = (await apiA("POST", "/api/v1/servers", { name: "everything", url: everything.url, transport: "streamable-http" })).body.server.id;
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop({ crash: true }).catch(() => undefined);
    await everything?.stop();
  });

  it("a second instance starting up leaves the first one's running call alone", async () => {
    // Long enough to outlast a console start-up on two busy cores (files run two at a time).
    const running = longCall(apiA, "while-b-starts", 30);
    await waitFor(async () => (await callByRequest(apiA, "while-b-starts"))?.status === "pending");
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    apiB = apiClient(b.url, token);
    expect((await callByRequest(apiB, "while-b-starts"))?.status).toBe("pending");
    expect((await running).body.call.status).toBe("ok");
    expect((await callByRequest(apiB, "while-b-starts"))?.status).toBe("ok");
  });

  it("an instance that dies mid-call has its pending calls marked interrupted by another", async () => {
    void longCall(apiA, "killed-mid-call", 30).catch(() => undefined);
    await waitFor(async () => (await callByRequest(apiB, "killed-mid-call"))?.status === "pending");
    await a.stop({ crash: true });
    await waitFor(async () => (await callByRequest(apiB, "killed-mid-call"))?.status === "interrupted", 10_000);
  });

  it("an instance elsewhere that stopped beating has its pending calls marked interrupted", async () => {
    // How a console on another machine looks once it is gone: a row with an old heartbeat.
    const old = new Date(Date.now() - 60_000);
    const call = (await b!.db.get('SELECT * FROM "call" LIMIT 1'))!;
    const columns = Object.keys(call);
    const row = { ...call, id: "remote-call", request_id: "remote-instance-call", status: "pending", finished_at: null, instance_id: "elsewhere" };
    await b!.db.batch([
      ["INSERT INTO instance (id, host, pid, started_at, heartbeat_at) VALUES ('elsewhere', 'another-host', 1, ?, ?)", old, old],
      [`INSERT INTO "call" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, ...columns.map((c) => row[c as keyof typeof row])],
    ]);
    await waitFor(async () => (await callByRequest(apiB, "remote-instance-call"))?.status === "interrupted", 10_000);
    expect((await apiB("GET", "/api/v1/calls?status=pending")).body.items).toHaveLength(0);
  });
});
