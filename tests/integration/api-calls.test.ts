import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("servers, sessions and recorded calls against server-everything", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let serverId: string;

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    ({ api } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("adds a server with secret headers that are never returned", async () => {
    const res = await api("POST", "/api/v1/servers", {
      name: "everything",
      url: everything.url,
      headers: { "X-Api-Key": "top-secret-value" },
      timeoutMs: 20_000,
    });
    expect(res.status).toBe(201);
    serverId = res.body.server.id;
    expect(res.body.server.headerNames).toEqual(["X-Api-Key"]);
    expect(res.body.server.status).toBe("disconnected");
    const all = JSON.stringify([res.body, (await api("GET", "/api/v1/servers")).body, (await api("GET", `/api/v1/servers/${serverId}`)).body]);
    expect(all).not.toContain("top-secret-value");
    const dup = await api("POST", "/api/v1/servers", { name: "everything", url: everything.url });
    expect(dup.status).toBe(409);
    const bad = await api("POST", "/api/v1/servers", { name: "bad", url: "javascript:alert(1)" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/url/i);
  });

  it("connects and reports the negotiated session", async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/connect`);
    expect(res.status).toBe(200);
    const { session } = res.body;
    expect(session.status).toBe("connected");
    expect(session.era).toBe("legacy");
    expect(session.transport).toBe("streamable-http");
    expect(session.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(session.serverInfo.name).toMatch(/everything/);
    expect(session.capabilities.tools).toBeDefined();
    expect((await api("GET", `/api/v1/servers/${serverId}`)).body.server.status).toBe("connected");
  });

  it("lists every kind of capability, all pages merged", async () => {
    const tools = (await api("GET", `/api/v1/servers/${serverId}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-structured-content"]));
    expect((await api("GET", `/api/v1/servers/${serverId}/resources`)).body.items.length).toBeGreaterThanOrEqual(7);
    expect((await api("GET", `/api/v1/servers/${serverId}/resource-templates`)).body.items.length).toBe(2);
    expect((await api("GET", `/api/v1/servers/${serverId}/prompts`)).body.items.length).toBe(4);
    expect((await api("GET", `/api/v1/servers/${serverId}/nonsense`)).status).toBe(404);
  });

  it("calls tools and records each call", async () => {
    const echo = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "hello history" } });
    expect(echo.status).toBe(200);
    const call = echo.body.call;
    expect(call.status).toBe("ok");
    expect(JSON.stringify(call.result)).toContain("hello history");
    expect(call.durationMs).toBeGreaterThan(0);
    expect(call.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(call.userName).toBe("Ada Owner");
    expect(call.resultSize).toBeGreaterThan(0);

    const image = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-tiny-image" })).body.call;
    expect(image.status).toBe("ok");
    expect(image.result.content.some((c: { type: string; mimeType?: string }) => c.type === "image" && c.mimeType === "image/png")).toBe(true);

    const sum = (await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 2, b: 40 } })).body.call;
    expect(JSON.stringify(sum.result)).toContain("42");
  });

  it("validates arguments against the input schema before sending", async () => {
    const before = (await api("GET", `/api/v1/calls?serverId=${serverId}&limit=200`)).body.items.length;
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: "two" } });
    expect(res.status).toBe(422);
    expect(res.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(["/a", "/b"]));
    expect((await api("GET", `/api/v1/calls?serverId=${serverId}&limit=200`)).body.items.length).toBe(before);
  });

  it("sends invalid arguments anyway when asked, and records the call as such", async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: "two" }, skipValidation: true });
    expect(res.status).toBe(200);
    // The server got them and answered (its own refusal is the call's result, recorded as data).
    expect(res.body.call.sentInvalid).toBe(true);
    expect(res.body.call.params).toEqual({ name: "get-sum", arguments: { a: "two" } });
    expect(["ok", "error"]).toContain(res.body.call.status);
    const listed = (await api("GET", `/api/v1/calls?serverId=${serverId}&limit=1`)).body.items[0];
    expect(listed).toMatchObject({ id: res.body.call.id, sentInvalid: true });
    // Valid arguments with the same flag are just a call.
    const valid = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 1, b: 2 }, skipValidation: true });
    expect(valid.body.call.sentInvalid).toBe(false);
  });

  it("records tool errors as data, with HTTP 200", async () => {
    // server-everything answers an unknown tool with an isError result.
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "no-such-tool" });
    expect(res.status).toBe(200);
    expect(res.body.call.status).toBe("error");
    expect(res.body.call.isError).toBe(true);
  });

  it("reads resources and gets prompts as recorded calls", async () => {
    const resources = (await api("GET", `/api/v1/servers/${serverId}/resources`)).body.items;
    const read = (await api("POST", `/api/v1/servers/${serverId}/resources/read`, { uri: resources[0].uri })).body.call;
    expect(read.method).toBe("resources/read");
    expect(read.status).toBe("ok");
    expect(read.result.contents.length).toBeGreaterThan(0);
    const prompts = (await api("GET", `/api/v1/servers/${serverId}/prompts`)).body.items;
    const simple = prompts.find((p: { arguments?: { required?: boolean }[] }) => !(p.arguments ?? []).some((a) => a.required));
    const got = (await api("POST", `/api/v1/servers/${serverId}/prompts/get`, { name: simple.name })).body.call;
    expect(got.method).toBe("prompts/get");
    expect(got.status).toBe("ok");
    expect(got.result.messages.length).toBeGreaterThan(0);
  });

  it("cancels a running call by its request id", async () => {
    const requestId = `cancel-${Date.now()}`;
    const pending = api("POST", `/api/v1/servers/${serverId}/tools/call`, {
      name: "trigger-long-running-operation",
      arguments: { duration: 30, steps: 30 },
      requestId,
    });
    await waitFor(async () => (await api("POST", "/api/v1/calls/cancel", { requestId })).body.cancelled === true, 10_000);
    const { body } = await pending;
    expect(body.call.status).toBe("cancelled");
    expect(body.call.requestId).toBe(requestId);
    const reuse = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "x" }, requestId });
    expect(reuse.status).toBe(409);
  });

  it("records a timeout", async () => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, {
      name: "trigger-long-running-operation",
      arguments: { duration: 10, steps: 2 },
      timeoutMs: 300,
    });
    expect(res.body.call.status).toBe("timeout");
    expect(res.body.call.error.kind).toBe("timeout");
  });

  it("filters, searches and pages through history, newest first", async () => {
    for (let i = 0; i < 5; i++) await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: `page-${i}` } });
    const first = (await api("GET", `/api/v1/calls?name=echo&limit=3`)).body;
    expect(first.items).toHaveLength(3);
    expect(first.items[0].paramsPreview).toContain("page-4");
    expect(first.nextCursor).toBeTruthy();
    const second = (await api("GET", `/api/v1/calls?name=echo&limit=3&cursor=${first.nextCursor}`)).body;
    expect(second.items[0].paramsPreview).toContain("page-1");
    const ids = [...first.items, ...second.items].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);

    const found = (await api("GET", `/api/v1/calls?q=hello%20history`)).body.items;
    expect(found).toHaveLength(1);
    expect((await api("GET", `/api/v1/calls?status=cancelled`)).body.items).toHaveLength(1);
    expect((await api("GET", `/api/v1/calls?method=resources%2Fread`)).body.items).toHaveLength(1);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect((await api("GET", `/api/v1/calls?from=${encodeURIComponent(future)}`)).body.items).toHaveLength(0);
    expect((await api("GET", `/api/v1/calls?status=bogus`)).status).toBe(400);
  });

  it("opens a call by id and re-runs it as a new linked call", async () => {
    const original = (await api("GET", `/api/v1/calls?q=hello%20history`)).body.items[0];
    const full = (await api("GET", `/api/v1/calls/${original.id}`)).body.call;
    expect(full.params).toEqual({ name: "echo", arguments: { message: "hello history" } });
    const rerun = (await api("POST", `/api/v1/calls/${original.id}/rerun`)).body.call;
    expect(rerun.id).not.toBe(original.id);
    expect(rerun.requestId).not.toBe(full.requestId);
    expect(rerun.rerunOfId).toBe(original.id);
    expect(rerun.status).toBe("ok");
    expect(rerun.result).toEqual(full.result);
  });

  it("keeps history across a restart and rebuilds the session on demand", async () => {
    const before = (await api("GET", "/api/v1/calls?limit=200")).body.items.length;
    await sb.stop();
    await sb.restart();
    expect((await api("GET", "/api/v1/calls?limit=200")).body.items.length).toBe(before);
    const echo = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "after restart" } });
    expect(echo.body.call.status).toBe("ok");
  });

  it("marks a call interrupted when the console dies mid-call", async () => {
    const requestId = `crash-${Date.now()}`;
    const inflight = api("POST", `/api/v1/servers/${serverId}/tools/call`, {
      name: "trigger-long-running-operation",
      arguments: { duration: 30, steps: 30 },
      requestId,
    }).catch(() => undefined);
    await waitFor(async () => (await api("GET", `/api/v1/calls?status=pending`)).body.items.some((c: { requestId: string }) => c.requestId === requestId));
    await sb.stop({ crash: true });
    await inflight;
    await sb.restart();
    const calls = (await api("GET", "/api/v1/calls?status=interrupted")).body.items;
    expect(calls.map((c: { requestId: string }) => c.requestId)).toContain(requestId);
    expect((await api("GET", "/api/v1/calls?status=pending")).body.items).toHaveLength(0);
  });

  it("disconnects, edits and deletes (archives)", async () => {
    expect((await api("POST", `/api/v1/servers/${serverId}/disconnect`)).status).toBe(204);
    expect((await api("GET", `/api/v1/servers/${serverId}`)).body.server.status).toBe("disconnected");
    const patched = await api("PATCH", `/api/v1/servers/${serverId}`, { headers: { "X-Api-Key": null, "X-Other": "v" }, timeoutMs: 5000 });
    expect(patched.body.server.headerNames).toEqual(["X-Other"]);
    expect(patched.body.server.timeoutMs).toBe(5000);
    expect((await api("DELETE", `/api/v1/servers/${serverId}`)).status).toBe(204);
    expect((await api("GET", `/api/v1/servers/${serverId}`)).body.server.archivedAt).toEqual(expect.any(String));
    expect((await api("GET", "/api/v1/servers")).body.items.map((s: { id: string }) => s.id)).not.toContain(serverId);
  });
});
