import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

const SECRET_ARG = "hunter2-do-not-leak";
const SECRET_HEADER = "header-value-do-not-leak";
const SECRET_QUERY = "query-key-do-not-leak";

describe("share links: public read-only calls, redacted, revocable", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let workspaceId: string;
  let serverId: string;
  let callId: string;

  const sql = (query: string, ...args: unknown[]) => sb.db.run(query, ...args);
  const share = async (body: unknown = {}, client: Api = api) => client("POST", `/api/v1/calls/${callId}/shares`, body);
  const openJson = (url: string) => fetch(url, { headers: { accept: "application/json" } });
  const openHtml = (url: string) => fetch(url, { headers: { accept: "text/html,application/xhtml+xml" } });
  /** What the console served a share page's shell with (lib/domains/shares/page-front.ts). */
  const embedded = (html: string) => JSON.parse(html.match(/<script id="sb-share" type="application\/json">(.*?)<\/script>/s)![1]!);
  const audits = (action: string) => sb.db.all<{ target_type: string; target_id: string; details: string }>("SELECT target_type, target_id, details FROM audit_event WHERE action = ?", action);

  /** A second person in the workspace with an API token, written straight into the database. */
  async function addPerson(role: string, name: string): Promise<Api> {
    const id = crypto.randomUUID();
    return apiClient(sb.url, await insertMember(sb.db, { workspaceId, userId: id, name, email: `${id}@example.com`, role }));
  }

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    workspaceId = owner.workspace.id;
    const server = await api("POST", "/api/v1/servers", { name: "everything", url: `${everything.url}?key=${SECRET_QUERY}`, headers: { "X-Api-Key": SECRET_HEADER }, timeoutMs: 20_000 });
    expect(server.status).toBe(201);
    serverId = server.body.server.id;
    const call = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "hello share", password: SECRET_ARG } });
    expect(call.status).toBe(200);
    expect(call.body.call.status).toBe("ok");
    callId = call.body.call.id;
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  function expectNothingPrivate(text: string) {
    for (const secret of [SECRET_ARG, SECRET_HEADER, SECRET_QUERY, workspaceId, serverId, callId, "Ada Owner", "ada@example.com"]) {
      expect(text, `leaks ${secret}`).not.toContain(secret);
    }
  }

  it("previews exactly what the link will show, with the masked paths", async () => {
    const preview = await api("GET", `/api/v1/calls/${callId}/share-preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.masked).toEqual(["params.arguments.password"]);
    expect(preview.body.publicSharesEnabled).toBe(true);
    expect(preview.body.call.params.arguments).toEqual({ message: "hello share", password: "[redacted]" });
    expect(preview.body.call.server).toEqual({ name: "everything", url: everything.url, kind: "http" });
    expectNothingPrivate(JSON.stringify(preview.body.call));
  });

  it("creates a link that anyone can open as JSON and as a page, redacted, and counts views", async () => {
    const created = await share({ expiresInDays: 7 });
    expect(created.status).toBe(201);
    const { id, url, expiresAt, createdAt } = created.body.share;
    expect(url).toMatch(new RegExp(`^${sb.url}/s/sbs_[\\w-]{43}$`));
    expect(new Date(expiresAt).getTime() - new Date(createdAt).getTime()).toBeCloseTo(7 * 86_400_000, -4);
    const token = url.split("/s/")[1];
    const stored = (await sb.db.get<{ token_hash: string; token_secret: string }>("SELECT token_hash, token_secret FROM share WHERE id = ?", id))!;
    expect(stored.token_hash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
    expect(stored.token_secret).not.toContain(token);

    const json = await openJson(url);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toMatch(/application\/json/);
    expect(json.headers.get("cache-control")).toBe("no-store");
    const text = await json.text();
    expectNothingPrivate(text);
    const body = JSON.parse(text);
    expect(body.call.params.arguments.password).toBe("[redacted]");
    expect(body.call.params.arguments.message).toBe("hello share");
    expect(JSON.stringify(body.call.result)).toContain("hello share");
    expect(body.share).toEqual({ createdAt, expiresAt });
    const preview = await api("GET", `/api/v1/calls/${callId}/share-preview`);
    expect(body.call).toEqual(preview.body.call);

    const viaApi = await openJson(`${sb.url}/api/v1/public/shares/${token}`);
    expect(viaApi.status).toBe(200);
    expect((await viaApi.json()).call).toEqual(body.call);

    const html = await openHtml(url);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-type")).toMatch(/text\/html/);
    const page = await html.text();
    expect(embedded(page)).toEqual({ status: 200, body });
    expect(page).toContain("Shared call");
    expect(page).not.toContain("Run again");
    expect(page).not.toMatch(/href="\/(calls|servers|history|settings)/);
    expectNothingPrivate(page);

    const listed = await api("GET", "/api/v1/shares");
    expect(listed.status).toBe(200);
    const row = listed.body.items.find((s: { id: string }) => s.id === id);
    expect(row).toMatchObject({ url, status: "active", viewCount: 3, callId, call: { name: "echo", serverName: "everything" }, createdBy: { name: "Ada Owner" }, canRevoke: true });
    expect(row.lastViewedAt).not.toBeNull();
    const forCall = await api("GET", `/api/v1/calls/${callId}/shares`);
    expect(forCall.body.publicSharesEnabled).toBe(true);
    expect(forCall.body.items.map((s: { id: string }) => s.id)).toContain(id);
    expect(await audits("share.created")).toContainEqual(expect.objectContaining({ target_type: "call", target_id: callId }));
  });

  it("revokes a link: the URL answers 410 as JSON and as a page, and the call's list drops it", async () => {
    const { id, url } = (await share()).body.share;
    expect((await openJson(url)).status).toBe(200);
    expect((await api("DELETE", `/api/v1/shares/${id}`)).status).toBe(204);

    const json = await openJson(url);
    expect(json.status).toBe(410);
    expect((await json.json()).error).toMatchObject({ code: "gone", message: expect.stringMatching(/revoked/) });
    const html = await openHtml(url);
    expect(html.status).toBe(410);
    // The page is one prerendered shell; the console serves it with what the API would answer.
    expect(embedded(await html.text())).toEqual({ status: 410, body: { error: { code: "gone", message: "This share link was revoked" } } });

    expect((await api("DELETE", `/api/v1/shares/${id}`)).status).toBe(204);
    expect((await audits("share.revoked")).filter((a) => JSON.parse(a.details).shareId === id)).toHaveLength(1);
    const forCall = await api("GET", `/api/v1/calls/${callId}/shares`);
    expect(forCall.body.items.map((s: { id: string }) => s.id)).not.toContain(id);
    expect((await api("GET", "/api/v1/shares")).body.items.find((s: { id: string }) => s.id === id)).toMatchObject({ status: "revoked", canRevoke: false });
  });

  it("answers 404 for a token that never existed, and 404 for another workspace's call", async () => {
    const unknown = `${sb.url}/s/sbs_${crypto.randomBytes(32).toString("base64url")}`;
    expect((await openJson(unknown)).status).toBe(404);
    expect((await openHtml(unknown)).status).toBe(404);
    expect((await openJson(`${sb.url}/s/garbage`)).status).toBe(404);
    expect((await api("POST", "/api/v1/calls/not-a-call/shares", {})).status).toBe(404);
  });

  it("refuses an expiry in the past, and an expired link answers 410", async () => {
    const past = await share({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toMatch(/future/);
    expect((await share({ expiresAt: new Date(Date.now() + 60_000).toISOString(), expiresInDays: 1 })).status).toBe(400);

    const { id, url } = (await share({ expiresAt: new Date(Date.now() + 3_600_000).toISOString() })).body.share;
    expect((await openJson(url)).status).toBe(200);
    await sql("UPDATE share SET expires_at = created_at WHERE id = ?", id);
    const json = await openJson(url);
    expect(json.status).toBe(410);
    expect((await json.json()).error.message).toMatch(/expired/);
    expect((await openHtml(url)).status).toBe(410);
    expect((await api("GET", "/api/v1/shares")).body.items.find((s: { id: string }) => s.id === id).status).toBe("expired");
  });

  it("with public links turned off: creating is refused (403, not audited) and existing links answer 410", async () => {
    const { url } = (await share()).body.share;
    const before = (await audits("share.created")).length;
    await sql("UPDATE workspace SET public_shares_enabled = ? WHERE id = ?", false, workspaceId);
    try {
      const refused = await share();
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/turned off/);
      expect(await audits("share.created")).toHaveLength(before);
      expect((await api("GET", `/api/v1/calls/${callId}/shares`)).body.publicSharesEnabled).toBe(false);
      expect((await api("GET", `/api/v1/calls/${callId}/share-preview`)).body.publicSharesEnabled).toBe(false);
      expect((await openJson(url)).status).toBe(410);
      expect((await openHtml(url)).status).toBe(410);
    } finally {
      await sql("UPDATE workspace SET public_shares_enabled = ? WHERE id = ?", true, workspaceId);
    }
    expect((await openJson(url)).status).toBe(200);
  });

  it("enforces roles: a read-only token cannot share; members revoke only their own links, admins anybody's", async () => {
    const read = await api("POST", "/api/v1/tokens", { name: "reader", scope: "read" });
    expect(read.status).toBe(201);
    const viewer = apiClient(sb.url, read.body.secret);
    expect((await share({}, viewer)).status).toBe(403);
    expect((await viewer("GET", `/api/v1/calls/${callId}/shares`)).status).toBe(200);
    expect((await viewer("GET", `/api/v1/calls/${callId}/share-preview`)).status).toBe(403);
    expect((await viewer("GET", "/api/v1/shares")).status).toBe(403);

    const ownersLink = (await share()).body.share;
    const member = await addPerson("member", "Max Member");
    const admin = await addPerson("admin", "Ann Admin");
    expect((await member("DELETE", `/api/v1/shares/${ownersLink.id}`)).status).toBe(403);
    expect((await viewer("DELETE", `/api/v1/shares/${ownersLink.id}`)).status).toBe(403);
    const membersLink = await share({}, member);
    expect(membersLink.status).toBe(201);
    const seenByMember = (await member("GET", "/api/v1/shares")).body.items;
    expect(seenByMember.find((s: { id: string }) => s.id === ownersLink.id).canRevoke).toBe(false);
    expect(seenByMember.find((s: { id: string }) => s.id === membersLink.body.share.id)).toMatchObject({ canRevoke: true, createdBy: { name: "Max Member" } });
    expect((await member("DELETE", `/api/v1/shares/${membersLink.body.share.id}`)).status).toBe(204);
    expect((await admin("DELETE", `/api/v1/shares/${ownersLink.id}`)).status).toBe(204);
    expect((await openJson(ownersLink.url)).status).toBe(410);
  });
});
