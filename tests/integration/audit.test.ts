import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
type Entry = { id: number; action: string; actor: { type: string; id: string | null; name: string | null }; target: { type: string | null; id: string | null; name: string | null }; details: any; ip: string | null; userAgent: string | null; createdAt: string };

describe("audit log", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let token: string;
  let ownerId: string;
  let serverId: string;

  const signIn = (email: string, password: string) =>
    fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url, "user-agent": "audit-test/1.0" },
      body: JSON.stringify({ email, password }),
    });
  const entries = async (query: string): Promise<Entry[]> => {
    const res = await api("GET", `/api/v1/audit${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items;
  };

  beforeAll(async () => {
    sb = await startConsole();
    ({ api, token } = await setupOwner(sb.url));
    ownerId = (await api("GET", "/api/v1/me")).body.user.id;
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("records server changes with header names, never values", async () => {
    const created = await api("POST", "/api/v1/servers", {
      name: "audited",
      url: "http://127.0.0.1:2/mcp",
      headers: { Authorization: "Bearer secret-value-1", "X-Keep": "keep-value" },
    });
    serverId = created.body.server.id;
    const patched = await api("PATCH", `/api/v1/servers/${serverId}`, {
      name: "audited-2",
      timeoutMs: 30_000,
      headers: { Authorization: "Bearer secret-value-2", "X-Keep": null, "X-New": "new-value" },
    });
    expect(patched.status).toBe(200);
    expect((await api("DELETE", `/api/v1/servers/${serverId}`)).status).toBe(204);
    expect((await api("POST", `/api/v1/servers/${serverId}/restore`)).status).toBe(200);

    const events = await entries(`?targetId=${serverId}`);
    expect(events.map((e) => e.action)).toEqual(["server.restored", "server.archived", "server.updated", "server.created"]);
    const [, , updated, createdEvent] = events;
    expect(createdEvent.details).toEqual({ kind: "http", headers: ["Authorization", "X-Keep"] });
    expect(updated.details).toEqual({
      fields: ["name", "timeoutMs", "headers"],
      headers: { added: ["X-New"], removed: ["X-Keep"], changed: ["Authorization"] },
      previousName: "audited",
    });
    expect(updated).toMatchObject({ actor: { type: "token", id: ownerId, name: "Ada Owner" }, target: { type: "server", id: serverId, name: "audited-2" } });
    expect(updated.ip).toMatch(/127\.0\.0\.1/);
    const everything = JSON.stringify(await entries("?limit=200"));
    expect(everything).not.toMatch(/secret-value|keep-value|new-value/);

    await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { imported: { url: "http://127.0.0.1:2/mcp", headers: { "X-Key": "imported-secret" } } } }) });
    const [imported] = await entries("?action=servers.imported");
    expect(imported.details).toEqual({ created: ["imported"], skipped: [] });
  });

  it("records tokens, and refuses the log to anyone below admin", async () => {
    const created = await api("POST", "/api/v1/tokens", { name: "reader", scope: "read" });
    expect(created.status).toBe(201);
    const reader = apiClient(sb.url, created.body.secret);
    expect((await reader("GET", "/api/v1/servers")).status).toBe(200);
    const list = await reader("GET", "/api/v1/audit");
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe("forbidden");
    expect((await reader("GET", "/api/v1/audit/export")).status).toBe(403);

    expect((await api("DELETE", `/api/v1/tokens/${created.body.token.id}`)).status).toBe(204);
    const events = await entries(`?action=token.&targetId=${created.body.token.id}`);
    expect(events.map((e) => [e.action, e.target.name, e.details])).toEqual([
      ["token.revoked", "reader", null],
      ["token.created", "reader", { scope: "read", prefix: created.body.token.prefix }],
    ]);
    expect(JSON.stringify(events)).not.toContain(created.body.secret);
  });

  it("records sign-ins, failed sign-ins (with the address tried, never the password) and sign-outs", async () => {
    const failed = await signIn("ada@example.com", "wrong password 123");
    expect(failed.status).toBe(401);
    const ok = await signIn("ada@example.com", "correct horse battery");
    expect(ok.status).toBe(200);
    const cookie = ok.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const out = await fetch(`${sb.url}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: sb.url, "content-type": "application/json" }, body: "{}" });
    expect(out.status).toBe(200);
    expect((await signIn("nobody@example.com", "whatever 12345")).status).toBe(401);

    const [signedOut, signedIn, failure] = await entries("?action=auth.");
    expect(failure).toMatchObject({
      action: "auth.sign_in_failed",
      actor: { type: "anonymous", id: null },
      target: { type: "user", id: ownerId, name: "ada@example.com" },
      details: { email: "ada@example.com" },
      userAgent: "audit-test/1.0",
    });
    expect(failure.ip).toMatch(/127\.0\.0\.1/);
    expect(signedIn).toMatchObject({ action: "auth.signed_in", actor: { type: "user", id: ownerId }, userAgent: "audit-test/1.0" });
    expect(signedOut).toMatchObject({ action: "auth.signed_out", actor: { type: "user", id: ownerId } });
    expect(JSON.stringify(await entries("?limit=200"))).not.toMatch(/wrong password|correct horse|nobody@example\.com/);

    // An unknown address belongs to no workspace: recorded with workspace null.
    const row = (await sb.db.get<{ workspace_id: string | null; details: string; ip: string }>("SELECT workspace_id, details, ip FROM audit_event WHERE action = 'auth.sign_in_failed' AND details LIKE '%nobody@%'"))!;
    expect(row.workspace_id).toBeNull();
    expect(JSON.parse(row.details).email).toBe("nobody@example.com");
    expect(row.details).not.toContain("whatever");
    expect(row.ip).toMatch(/127\.0\.0\.1/);
  });

  it("filters by action, actor, target and time, pages by cursor, newest first", async () => {
    const all = await entries("?limit=200");
    expect(all.length).toBeGreaterThan(8);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));

    const servers = await entries("?action=server.");
    expect(servers.length).toBeGreaterThanOrEqual(4);
    expect(servers.every((e) => e.action.startsWith("server."))).toBe(true);
    expect((await entries("?action=server")).length).toBe(0);
    expect((await entries("?action=server.updated")).map((e) => e.action)).toEqual(["server.updated"]);
    expect((await entries(`?actorId=${ownerId}`)).every((e) => e.actor.id === ownerId)).toBe(true);
    expect((await entries("?targetType=token")).every((e) => e.target.type === "token")).toBe(true);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await entries(`?since=${future}`)).toEqual([]);
    expect(await entries("?until=2000-01-01T00:00:00.000Z")).toEqual([]);
    expect((await entries(`?since=${all[all.length - 1]!.createdAt}`)).length).toBe(all.length);
    expect((await api("GET", "/api/v1/audit?since=yesterday")).status).toBe(400);

    const walked: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: Entry[]; nextCursor: string | null } } = await api("GET", `/api/v1/audit?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      walked.push(...page.body.items.map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.map((e) => e.id));
  });

  it("exports the filtered log as NDJSON, one event per line", async () => {
    const res = await fetch(`${sb.url}/api/v1/audit/export?action=server.`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-.*\.ndjson"$/);
    const lines = (await res.text()).trimEnd().split("\n").map((l) => JSON.parse(l) as Entry);
    expect(lines.map((e) => e.id)).toEqual((await entries("?action=server.&limit=200")).map((e) => e.id));
    expect(lines.every((e) => e.action.startsWith("server."))).toBe(true);
  });
});
