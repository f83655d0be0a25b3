import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;
const SECRET = "hunter2-share-page";

/**
 * A share link's page is one prerendered shell served by the console with the link's status and
 * what the public API would answer (lib/domains/shares/page-front.ts). A link's built call is kept
 * between views; every view still asks the database whether the link is open, so a revoke, an
 * expiry, sharing turned off or a changed redaction list shows at once, on every instance (two
 * consoles on one database here: SQLite, and PostgreSQL on that pass).
 */
describe("share pages: the link's status and data in the shell, current on every instance", () => {
  let a: ConsoleHandle;
  let b: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let callId: string;
  let serverId: string;

  const sql = (query: string, ...args: unknown[]) => a.db.run(query, ...args);
  const newLink = async () => {
    const created = await api("POST", `/api/v1/calls/${callId}/shares`, {});
    expect(created.status).toBe(201);
    const { id, url } = created.body.share as { id: string; url: string };
    return { id, token: url.split("/s/")[1]! };
  };
  /** A page load of `/s/<token>` on one console: its status, headers, HTML and the data it was served with. */
  async function page(on: ConsoleHandle, token: string) {
    const res = await fetch(`${on.url}/s/${token}`, { headers: { accept: "text/html,application/xhtml+xml" } });
    const html = await res.text();
    const found = html.match(/<script id="sb-share" type="application\/json">(.*?)<\/script>/s);
    return { status: res.status, headers: res.headers, html, data: found ? JSON.parse(found[1]!) : null };
  }
  const viewCount = async (id: string) => ((await api("GET", "/api/v1/shares")).body.items as { id: string; viewCount: number }[]).find((s) => s.id === id)!.viewCount;

  beforeAll(async () => {
    [a, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    b = await startConsole({ databaseUrl: a.databaseUrl, join: true });
    const owner = await setupOwner(a.url);
    api = owner.api;
    const server = await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 });
    expect(server.status).toBe(201);
    serverId = server.body.server.id;
    const call = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "hello page", password: SECRET } });
    expect(call.body.call?.status).toBe("ok");
    callId = call.body.call.id;
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), everything?.stop()]);
  });

  it("answers 200 with the redacted call and counts each view; 404 for an unknown or malformed token", async () => {
    const { id, token } = await newLink();
    const first = await page(b, token);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^text\/html/);
    expect(first.headers.get("cache-control")).toMatch(/no-store/);
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.html).not.toContain(SECRET);
    expect(first.data.status).toBe(200);
    expect(first.data.body.call.params.arguments).toEqual({ message: "hello page", password: "[redacted]" });
    const json = await (await fetch(`${a.url}/s/${token}`, { headers: { accept: "application/json" } })).json();
    expect(first.data.body).toEqual(json);
    expect((await page(b, token)).data).toEqual(first.data);
    expect(await viewCount(id)).toBe(3);

    const unknown = await page(b, `sbs_${crypto.randomBytes(32).toString("base64url")}`);
    expect(unknown.status).toBe(404);
    expect(unknown.data).toEqual({ status: 404, body: { error: { code: "not_found", message: "Share link not found" } } });
    expect((await page(b, "no-such-link")).status).toBe(404);
  });

  it("answers hostile tokens with 404 (or the request front's 400), never a 500, never echoing them", async () => {
    const hostile = ["%zz", "%00", "..%2F..%2Fetc%2Fpasswd", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "sbs_" + "a".repeat(8000), "%E2%80%AE%F0%9F%92%A5", "sbs_x%20OR%201=1"];
    for (const segment of hostile) {
      const res = await fetch(`${b.url}/s/${segment}`, { headers: { accept: "text/html" } });
      const html = await res.text();
      expect([400, 404, 414, 431], segment.slice(0, 40)).toContain(res.status);
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("a".repeat(200));
    }
  });

  it("a revoked link is gone at once on both instances, though each had its page built", async () => {
    const { id, token } = await newLink();
    for (const on of [a, b, a, b]) expect((await page(on, token)).status).toBe(200);
    expect((await api("DELETE", `/api/v1/shares/${id}`)).status).toBe(204);
    for (const on of [b, a]) {
      const gone = await page(on, token);
      expect(gone.status).toBe(410);
      expect(gone.data).toEqual({ status: 410, body: { error: { code: "gone", message: "This share link was revoked" } } });
      expect(gone.html).not.toContain("hello page");
      // HEAD goes to Next, where proxy.ts sets the same status on the same shell.
      expect((await fetch(`${on.url}/s/${token}`, { method: "HEAD" })).status).toBe(410);
    }
    expect(await viewCount(id)).toBe(4);
  });

  it("an expired, switched-off or deleted link stops at once, with its page built before", async () => {
    const expiring = await newLink();
    expect((await page(b, expiring.token)).status).toBe(200);
    await sql("UPDATE share SET expires_at = created_at WHERE id = ?", expiring.id);
    const expired = await page(b, expiring.token);
    expect(expired.status).toBe(410);
    expect(expired.data.body.error.message).toMatch(/^This share link expired on \d{4}-\d\d-\d\d$/);

    const { id, token } = await newLink();
    expect((await page(b, token)).status).toBe(200);
    const workspaceId = (await a.db.get<{ workspace_id: string }>("SELECT workspace_id FROM share WHERE id = ?", id))!.workspace_id;
    await sql("UPDATE workspace SET public_shares_enabled = ? WHERE id = ?", false, workspaceId);
    try {
      expect((await page(b, token)).data.body.error.message).toMatch(/turned off/);
    } finally {
      await sql("UPDATE workspace SET public_shares_enabled = ? WHERE id = ?", true, workspaceId);
    }
    expect((await page(b, token)).status).toBe(200);
    await sql("DELETE FROM share WHERE id = ?", id);
    expect((await page(b, token)).status).toBe(404);
    expect((await fetch(`${b.url}/s/${token}`, { method: "HEAD" })).status).toBe(404);
  });

  it("a server's change shows in a built page at once (its write empties the server cache, which the built page follows)", async () => {
    const { token } = await newLink();
    expect((await page(a, token)).data.body.call.server.name).toBe("everything");
    expect((await api("PATCH", `/api/v1/servers/${serverId}`, { name: "renamed" })).status).toBe(200);
    try {
      expect((await page(a, token)).data.body.call.server.name).toBe("renamed");
    } finally {
      expect((await api("PATCH", `/api/v1/servers/${serverId}`, { name: "everything" })).status).toBe(200);
    }
  });

  it("a redaction list changed on one instance masks the other's built page at once", async () => {
    const { token } = await newLink();
    expect((await page(b, token)).data.body.call.params.arguments.message).toBe("hello page");
    expect((await api("PATCH", "/api/v1/workspace", { redactionKeys: ["message"] })).status).toBe(200);
    try {
      expect((await page(b, token)).data.body.call.params.arguments.message).toBe("[redacted]");
    } finally {
      expect((await api("PATCH", "/api/v1/workspace", { redactionKeys: null })).status).toBe(200);
    }
    expect((await page(b, token)).data.body.call.params.arguments.message).toBe("hello page");
  });
});
