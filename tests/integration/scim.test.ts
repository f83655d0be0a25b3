import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMember } from "../support/database";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

/**
 * SCIM 2.0 provisioning (lib/team/scim) with the requests Okta's and Microsoft Entra ID's SCIM test
 * sequences send, deactivation ending sessions and tokens at once, the group → role mapping, hostile
 * input, and the auditor role end to end. One console, on SQLite and (integration-postgres) PostgreSQL.
 */
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

describe("SCIM provisioning and the auditor", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let scimToken: string;

  beforeAll(async () => {
    sb = await startConsole();
    owner = await setupOwner(sb.url);
    const created = await owner.api("POST", "/api/v1/workspace/scim-tokens", { name: "okta" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.token.prefix).toBe(created.body.secret.slice(0, 11));
    scimToken = created.body.secret;
  });
  afterAll(async () => {
    await sb?.stop();
  });

  async function scim(method: string, path: string, body?: unknown, token: string | null = scimToken, raw?: string) {
    const res = await fetch(`${sb.url}/scim/v2${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined || raw ? { "content-type": "application/scim+json" } : {}) },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type"), body: text ? JSON.parse(text) : null };
  }
  const userBody = (userName: string, extra: Record<string, unknown> = {}) => ({
    schemas: [USER],
    userName,
    name: { givenName: "Test", familyName: "User" },
    emails: [{ primary: true, value: userName, type: "work" }],
    displayName: "Test User",
    active: true,
    ...extra,
  });
  const roleOf = async (userId: string) => ((await owner.api("GET", "/api/v1/members")).body.items as { id: string; role: string }[]).find((m) => m.id === userId)?.role;

  it("passes Okta's SCIM 2.0 test sequence", async () => {
    const random = `okta-${Date.now()}@example.com`;
    const none = await scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "${random}"`)}&startIndex=1&count=100`);
    expect(none.status).toBe(200);
    expect(none.type).toContain("application/scim+json");
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [], schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"] });

    const created = await scim("POST", "/Users", userBody(random));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ userName: random, active: true });
    const id = created.body.id as string;
    expect((await scim("GET", `/Users/${id}`)).body.userName).toBe(random);
    const found = await scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "${random}"`)}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    expect((await scim("POST", "/Users", userBody(random))).status).toBe(409);

    const put = await scim("PUT", `/Users/${id}`, userBody(random, { name: { givenName: "Changed", familyName: "User" } }));
    expect(put.body.name.givenName).toBe("Changed");
    const renamed = await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { name: { givenName: "Patched", familyName: "User" } } }] });
    expect(renamed.body.name.givenName).toBe("Patched");

    const userId = (await owner.api("GET", "/api/v1/members")).body.items.find((m: { email: string }) => m.email === random).id as string;
    expect(await roleOf(userId)).toBe("member");
    const off = await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] });
    expect(off.body.active).toBe(false);
    expect(await roleOf(userId)).toBeUndefined();
    const on = await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: true } }] });
    expect(on.body.active).toBe(true);
    expect(await roleOf(userId)).toBe("member");

    const missing = await scim("GET", "/Users/010101010101");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "404" });

    const group = await scim("POST", "/Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Okta Admins", members: [] });
    expect(group.status).toBe(201);
    const gid = group.body.id as string;
    expect((await scim("GET", `/Groups?filter=${encodeURIComponent('displayName eq "Okta Admins"')}`)).body.totalResults).toBe(1);
    await scim("PATCH", `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: id, display: random }] }] });
    expect((await scim("GET", `/Groups/${gid}`)).body.members.map((m: { value: string }) => m.value)).toEqual([id]);
    expect((await scim("GET", `/Users/${id}`)).body.groups[0].display).toBe("Okta Admins");

    // The mapping applies on the next change: set it, then the membership change re-applies it.
    expect((await owner.api("PATCH", "/api/v1/workspace", { scimGroupRoles: { "Okta Admins": "admin" } })).body.workspace.scimGroupRoles).toEqual({ "Okta Admins": "admin" });
    expect(await roleOf(userId)).toBe("admin");
    await scim("PATCH", `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: "remove", path: "members", value: [{ value: id }] }] });
    expect(await roleOf(userId)).toBe("member");
    await scim("PATCH", `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: "add", path: "members", value: [{ value: id }] }] });
    expect(await roleOf(userId)).toBe("admin");
    await scim("PATCH", `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { id: gid, displayName: "Okta Viewers" } }] });
    expect((await scim("GET", `/Groups/${gid}`)).body.displayName).toBe("Okta Viewers");
    expect(await roleOf(userId)).toBe("member");
    expect((await scim("DELETE", `/Groups/${gid}`)).status).toBe(204);
    expect((await scim("GET", `/Groups/${gid}`)).status).toBe(404);
    expect((await scim("DELETE", `/Users/${id}`)).status).toBe(204);
    expect(await roleOf(userId)).toBeUndefined();
  });

  it("passes Microsoft Entra ID's validator requests", async () => {
    const userName = `entra-${Date.now()}@example.com`;
    const externalId = `ext-${Date.now()}`;
    expect((await scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.totalResults).toBe(0);
    const created = await scim("POST", "/Users", userBody(userName, { externalId, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "R&D" } }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const byExternal = await scim("GET", `/Users?filter=${encodeURIComponent(`externalId eq "${externalId}"`)}`);
    expect(byExternal.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
    const patched = await scim("PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: "displayName", value: "Entra Person" },
        { op: "Add", path: 'emails[type eq "work"].value', value: userName },
        { op: "Replace", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "Ops" },
      ],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.displayName).toBe("Entra Person");
    const group = await scim("POST", "/Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Entra Group", externalId: "g-1" });
    const gid = group.body.id as string;
    expect((await scim("PATCH", `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: "Add", path: "members", value: [{ value: id }] }] })).status).toBe(200);
    const listed = await scim("GET", `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Entra Group"')}`);
    expect(listed.body.Resources[0].members).toBeUndefined();
    await scim("PATCH", `/Groups/${gid}`, { schemas: [PATCH_OP], Operations: [{ op: "Remove", path: `members[value eq "${id}"]` }] });
    expect((await scim("GET", `/Groups/${gid}`)).body.members ?? []).toEqual([]);
    const off = await scim("PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: "Replace", path: "active", value: "False" }] });
    expect(off.body.active).toBe(false);
    expect((await scim("DELETE", `/Users/${id}`)).status).toBe(204);
    expect((await scim("GET", `/Users/${id}`)).status).toBe(404);
    for (const path of ["/ServiceProviderConfig", "/ResourceTypes", "/Schemas"]) expect((await scim("GET", path)).status).toBe(200);
  });

  it("ends a signed-in browser session and an API token at once on deactivation", async () => {
    const email = "grace@example.com";
    const invited = await owner.api("POST", "/api/v1/invitations", { email, role: "member" });
    const accept = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ token: (invited.body.invitation.url as string).split("/invite/")[1], name: "Grace", password: "grace-password-1" }),
    });
    expect(accept.status).toBe(200);
    const cookie = await sessionCookie(sb.url, email, "grace-password-1");
    const asBrowser = apiClient(sb.url);
    const token = (await asBrowser("POST", "/api/v1/tokens", { name: "t" }, { cookie })).body.secret as string;
    expect((await asBrowser("GET", "/api/v1/me", undefined, { cookie })).status).toBe(200);
    expect((await apiClient(sb.url, token)("GET", "/api/v1/calls")).status).toBe(200);

    const linked = await scim("POST", "/Users", userBody(email));
    expect(linked.status).toBe(201);
    await scim("PATCH", `/Users/${linked.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] });
    expect((await asBrowser("GET", "/api/v1/me", undefined, { cookie })).status).toBe(401);
    expect((await apiClient(sb.url, token)("GET", "/api/v1/calls")).status).toBe(401);
    const audit = await owner.api("GET", "/api/v1/audit?limit=50");
    expect(audit.body.items.map((e: { action: string }) => e.action), sb.logs().split("\n").filter((l) => l.includes("audit")).join("\n").slice(0, 1500)).toEqual(expect.arrayContaining(["member.deprovisioned", "scim.user_deactivated"]));
  });

  it("refuses hostile requests in the SCIM error shape", async () => {
    expect((await scim("GET", "/Users", undefined, null)).status).toBe(401);
    expect((await scim("GET", "/Users", undefined, "sbscim_wrong")).body).toMatchObject({ status: "401", schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"] });
    expect((await scim("GET", "/Users", undefined, owner.token)).status).toBe(401);
    expect((await apiClient(sb.url, scimToken)("GET", "/api/v1/calls")).status).toBe(401);
    const bad = await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "x" and (')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.scimType).toBe("invalidFilter");
    expect((await scim("GET", `/Users?filter=${encodeURIComponent("a".repeat(2000))}`)).body.scimType).toBe("invalidFilter");
    expect((await scim("POST", "/Users", userBody(`${"a".repeat(10_000)}@example.com`))).status).toBe(400);
    expect((await scim("POST", "/Users", undefined, scimToken, "x".repeat(300 * 1024))).status).toBe(413);
    expect((await scim("POST", "/Users", undefined, scimToken, "{not json")).body.scimType).toBe("invalidSyntax");
    const someone = await scim("POST", "/Users", userBody(`hostile-${Date.now()}@example.com`));
    const unknownPath = await scim("PATCH", `/Users/${someone.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: "replace", path: "constructor.prototype", value: 1 }] });
    expect(unknownPath.status).toBe(400);
    expect(unknownPath.body.scimType).toBe("invalidPath");
    expect((await scim("PATCH", `/Users/${someone.body.id}`, { Operations: [{ op: "explode", path: "active" }] })).status).toBe(400);
    expect((await scim("POST", "/Groups", { displayName: "G", members: [{ value: "not-a-user" }] })).status).toBe(400);
    // Another workspace's user: each workspace's SCIM token sees its own users only.
    const other = await owner.api("POST", "/api/v1/workspaces", { name: "Other" });
    expect(other.status).toBe(201);
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const otherToken = await apiClient(sb.url)("POST", "/api/v1/workspace/scim-tokens", { name: "other" }, { cookie, "x-workspace-id": other.body.workspace.id });
    expect(otherToken.status).toBe(201);
    const theirs = await scim("POST", "/Users", userBody(`theirs-${Date.now()}@example.com`), otherToken.body.secret);
    expect(theirs.status).toBe(201);
    expect((await scim("GET", `/Users/${theirs.body.id}`)).status).toBe(404);
    expect((await scim("PATCH", `/Users/${theirs.body.id}`, { Operations: [{ op: "replace", value: { active: false } }] })).status).toBe(404);
    expect((await scim("DELETE", `/Users/${theirs.body.id}`)).status).toBe(404);
    expect((await scim("GET", `/Users/${someone.body.id}`, undefined, otherToken.body.secret)).status).toBe(404);
    expect((await owner.api("PATCH", "/api/v1/workspace", { scimGroupRoles: { g: "owner" } })).status).toBe(400);
    const tokens = await owner.api("GET", "/api/v1/workspace/scim-tokens");
    expect(tokens.body.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(tokens.body)).not.toContain(scimToken);
  });

  it("lets an auditor read history, the audit log and exports, and change nothing", async () => {
    const token = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: "user-auditor", name: "An auditor", email: "auditor@example.com", role: "auditor" });
    const auditor = apiClient(sb.url, token);
    for (const path of ["/api/v1/calls", "/api/v1/audit", "/api/v1/members"]) expect((await auditor("GET", path)).status, path).toBe(200);
    for (const path of ["/api/v1/audit/export", "/api/v1/calls/export?format=ndjson"]) {
      const exported = await fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(exported.status, path).toBe(200);
      await exported.body?.cancel();
    }
    const serverId = (await owner.api("POST", "/api/v1/servers/demo")).body.server.id as string;
    const call = await auditor("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "hello", arguments: {} });
    expect(call.status).toBe(403);
    expect(call.body.error.details.requiredRole).toBe("member");
    // Through the gateway: a gateway token the auditor kept from an earlier role calls no tool either.
    expect((await owner.api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).status).toBe(200);
    const { hashToken, newToken } = await import("@/lib/core/crypto");
    const gatewayToken = newToken("sb");
    await sb.db.batch([["INSERT INTO api_token (id, workspace_id, user_id, name, prefix, token_hash, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, 'gateway', ?)", "t-auditor-gw", owner.workspace.id, "user-auditor", "gw", gatewayToken.slice(0, 7), hashToken(gatewayToken), new Date()]]);
    const rpc = async (body: unknown, session?: string) =>
      fetch(`${sb.url}/mcp/${encodeURIComponent(owner.workspace.slug)}/demo`, {
        method: "POST",
        headers: { authorization: `Bearer ${gatewayToken}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session } : {}) },
        body: JSON.stringify(body),
      });
    const init = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "auditor", version: "1" } } });
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id") ?? undefined;
    await init.text();
    const refused = await (await rpc({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello", arguments: {} } }, session)).text();
    expect(refused).toContain("Auditors cannot call tools");
    expect((await auditor("POST", "/api/v1/servers", { name: "x", url: "http://127.0.0.1:1/mcp" })).status).toBe(403);
    expect((await auditor("PATCH", "/api/v1/workspace", { name: "mine" })).status).toBe(403);
    expect((await auditor("POST", "/api/v1/tokens", { name: "full" })).status).toBe(403);
    const read = await auditor("POST", "/api/v1/tokens", { name: "read", scope: "read" });
    expect(read.status).toBe(201);
    expect((await apiClient(sb.url, read.body.secret)("GET", "/api/v1/audit")).status).toBe(200);
  });
});
