import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { freePort, startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** A webhook receiver on 127.0.0.1 keeping each request's path and Authorization header. */
async function startReceiver() {
  const requests: { url: string; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push({ url: req.url ?? "", authorization: req.headers.authorization });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const MAX_MONITORS = 4;

/**
 * The LOW items of the hostile audit: a cron that fires under the 5 s floor, a workspace without a
 * cap on monitors, a read-only token that writes, and a webhook's credentials quoted in the
 * deliveries a viewer reads. The console runs the default (private) outbound policy.
 */
describe("hostile input: low items", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let api: Api;
  let viewer: Api;
  let serverId = "";

  const collection = async (name: string, steps: unknown[] = []) => {
    const res = await api("POST", "/api/v1/collections", { name, steps });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.collection.id as string;
  };

  beforeAll(async () => {
    [receiver, everything] = await Promise.all([startReceiver(), startEverything("streamableHttp")]);
    sb = await startConsole({ env: { SWITCHBOARD_MONITOR_POLL_MS: "200", SWITCHBOARD_MAX_MONITORS: String(MAX_MONITORS) } });
    owner = await setupOwner(sb.url);
    api = owner.api;
    viewer = apiClient(sb.url, await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: "user-viewer", name: "A viewer", email: "viewer@example.com", role: "viewer" }));
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop(), receiver?.close()]);
  });

  it("refuses a cron schedule that fires more often than every 5 seconds (422 naming the field), and keeps the rest", async () => {
    const collectionId = await collection("cron");
    for (const cron of ["* * * * * *", "*/2 * * * * *", "0,1 * * * * *", "*/7 * * * * *"]) {
      const res = await api("POST", "/api/v1/monitors", { collectionId, schedule: { cron, timeZone: "UTC" }, enabled: false });
      expect(res.status, `${cron}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error).toMatchObject({ code: "unprocessable", message: expect.stringMatching(/^schedule\.cron: .*5 seconds/), details: { path: ["schedule", "cron"] } });
    }
    const created: string[] = [];
    for (const cron of ["*/5 * * * * *", "* * * * *", "0 9 * * 1-5"]) {
      const res = await api("POST", "/api/v1/monitors", { collectionId, schedule: { cron, timeZone: "Europe/Paris" }, enabled: false });
      expect(res.status, `${cron}: ${JSON.stringify(res.body)}`).toBe(201);
      created.push(res.body.monitor.id);
    }
    const patched = await api("PATCH", `/api/v1/monitors/${created[0]}`, { schedule: { cron: "* * * * * *", timeZone: "UTC" } });
    expect([patched.status, patched.body.error?.message]).toEqual([422, expect.stringMatching(/^schedule\.cron: /)]);
    for (const id of created) expect((await api("DELETE", `/api/v1/monitors/${id}`)).status).toBe(204);
  });

  it("caps the monitors of a workspace (SWITCHBOARD_MAX_MONITORS): 409 quota past it, room again after a delete, per workspace", async () => {
    const collectionId = await collection("quota");
    const body = { collectionId, schedule: { everySeconds: 3600 }, enabled: false };
    const existing = (await api("GET", "/api/v1/monitors")).body.items.length as number;
    const ids: string[] = [];
    for (let i = existing; i < MAX_MONITORS; i++) {
      const res = await api("POST", "/api/v1/monitors", body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.monitor.id);
    }
    const over = await api("POST", "/api/v1/monitors", body);
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: "conflict", message: expect.stringContaining("SWITCHBOARD_MAX_MONITORS"), details: { quota: "monitors", limit: MAX_MONITORS } });
    expect((await api("GET", "/api/v1/monitors")).body.items).toHaveLength(MAX_MONITORS);

    // Another workspace of the same owner has its own room.
    const other = await api("POST", "/api/v1/workspaces", { name: "Other" });
    expect(other.status).toBe(201);
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const minted = await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "other", scope: "full" }, { cookie, "x-workspace-id": other.body.workspace.id });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const otherApi = apiClient(sb.url, minted.body.secret);
    const otherCollection = (await otherApi("POST", "/api/v1/collections", { name: "elsewhere", steps: [] })).body.collection.id;
    expect((await otherApi("POST", "/api/v1/monitors", { ...body, collectionId: otherCollection })).status).toBe(201);

    expect((await api("DELETE", `/api/v1/monitors/${ids[0]}`)).status).toBe(204);
    const again = await api("POST", "/api/v1/monitors", body);
    expect(again.status).toBe(201);
    for (const id of [...ids.slice(1), again.body.monitor.id]) await api("DELETE", `/api/v1/monitors/${id}`);
  });

  it("lets a read-only token write nothing: no workspace, no token, no revocation, no profile change", async () => {
    const full = await api("POST", "/api/v1/tokens", { name: "full", scope: "full" });
    const read = await api("POST", "/api/v1/tokens", { name: "read", scope: "read" });
    expect([full.status, read.status]).toEqual([201, 201]);
    const readOnly = apiClient(sb.url, read.body.secret);
    const fullApi = apiClient(sb.url, full.body.secret);

    const refusals = [
      await readOnly("POST", "/api/v1/workspaces", { name: "From a read-only token" }),
      await readOnly("DELETE", `/api/v1/tokens/${full.body.token.id}`),
      await readOnly("POST", "/api/v1/tokens", { name: "another", scope: "read" }),
      await readOnly("PATCH", "/api/v1/me", { theme: "dark" }),
    ];
    for (const res of refusals) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error).toMatchObject({ code: "forbidden", message: "This API token is read-only", details: { requiredScope: "full" } });
    }
    // Nothing happened: the full token still works, no workspace was made.
    expect((await fullApi("GET", "/api/v1/me")).status).toBe(200);
    expect((await readOnly("GET", "/api/v1/tokens")).status).toBe(200);
    const names = (await sb.db.all<{ name: string }>("SELECT name FROM workspace")).map((w) => w.name);
    expect(names).not.toContain("From a read-only token");
    // A full token still may.
    expect((await fullApi("DELETE", `/api/v1/tokens/${read.body.token.id}`)).status).toBe(204);
  });

  it("never shows a webhook's credentials or query token to a viewer, delivered or refused", async () => {
    const closed = await freePort();
    const hooks = [`http://hook-user:hook-password@127.0.0.1:${receiver.port}/hook?token=query-token-1`, `http://hook-user:hook-password@127.0.0.1:${closed}/hook/path-token-2?token=query-token-2`];
    const collectionId = await collection("leaky", [{ serverId, method: "tools/call", name: "echo", arguments: { message: "x" }, assert: [{ kind: "json", path: "/content/0/text", equals: "not this" }] }]);
    const created = await api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 }, alerts: { webhooks: hooks } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.monitor.id;
    const alertsOf = async (as: Api) => ((await as("GET", "/api/v1/alerts")).body.items as any[]).filter((a) => a.monitor?.id === id);
    await waitFor(async () => (await alertsOf(viewer)).some((a) => a.deliveries.length === 3), 40_000);
    await api("PATCH", `/api/v1/monitors/${id}`, { enabled: false });

    const [alert] = await alertsOf(viewer);
    const [, delivered, refused] = alert.deliveries;
    expect(delivered).toMatchObject({ channel: "webhook", target: `http://127.0.0.1:${receiver.port}/…`, ok: true, detail: "HTTP 200" });
    expect(refused).toMatchObject({ channel: "webhook", target: `http://127.0.0.1:${closed}/…`, ok: false, detail: expect.any(String) });
    expect(refused.detail).toMatch(/ECONNREFUSED/);
    // The receiver got the credentials as HTTP basic authentication, and the query as given.
    expect(receiver.requests.at(-1)).toEqual({ url: "/hook?token=query-token-1", authorization: `Basic ${Buffer.from("hook-user:hook-password").toString("base64")}` });

    const seen = JSON.stringify([alert, (await viewer("GET", `/api/v1/monitors/${id}`)).body, (await viewer("GET", `/api/v1/monitors/${id}/runs`)).body]);
    for (const secret of ["hook-password", "hook-user", "query-token", "path-token"]) expect(seen).not.toContain(secret);
    const audit = JSON.stringify((await api("GET", "/api/v1/audit?limit=200")).body);
    for (const secret of ["hook-password", "query-token", "path-token"]) expect(audit).not.toContain(secret);
  }, 60_000);
});
