import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMember } from "../support/database";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** Every item of a history query, page by page with a small limit, so the cursor is exercised. */
async function allPages(api: Api, query: Record<string, string>, limit = 2): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const qs: URLSearchParams = new URLSearchParams({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } = await api("GET", `/api/v1/calls?${qs}`);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.items.map((c) => c.id));
    cursor = res.body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error("history paging did not end");
}

describe("notes, tags, stars and saved views against server-everything", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let owner: Api;
  let member: Api;
  let readOnly: Api;
  let workspaceId: string;
  /** Calls made in order; `calls[0]` is the oldest. */
  const calls: string[] = [];

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const setup = await setupOwner(sb.url);
    owner = setup.api;
    workspaceId = setup.workspace.id;
    // A second person with the member role, made in the database: invitations are another part's work.
    const token = await insertMember(sb.db, { workspaceId, userId: "user-member", name: "Max Member", email: "max@example.com", role: "member" });
    member = apiClient(sb.url, token);
    const ro = await owner("POST", "/api/v1/tokens", { name: "read", scope: "read" });
    expect(ro.status).toBe(201);
    readOnly = apiClient(sb.url, ro.body.secret);

    const server = await owner("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 });
    expect(server.status).toBe(201);
    for (let i = 0; i < 7; i++) {
      const res = await owner("POST", `/api/v1/servers/${server.body.server.id}/tools/call`, { name: "echo", arguments: { message: `call ${i}` } });
      expect(res.body.call.status).toBe("ok");
      calls.push(res.body.call.id);
    }
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("records notes with author and time; the author edits them; the author or an admin deletes them", async () => {
    const callId = calls[0]!;
    const first = await owner("POST", `/api/v1/calls/${callId}/notes`, { body: "  Slow answer, **look** at `echo`  " });
    expect(first.status).toBe(201);
    expect(first.body.note).toMatchObject({ callId, body: "Slow answer, **look** at `echo`", author: { name: "Ada Owner" }, edited: false });
    expect(Date.now() - Date.parse(first.body.note.createdAt)).toBeLessThan(60_000);
    expect((await owner("POST", `/api/v1/calls/${callId}/notes`, { body: "x".repeat(10_001) })).status).toBe(400);
    expect((await owner("POST", `/api/v1/calls/${callId}/notes`, { body: "   " })).status).toBe(400);
    expect((await owner("POST", "/api/v1/calls/no-such-call/notes", { body: "hi" })).status).toBe(404);

    const second = await member("POST", `/api/v1/calls/${callId}/notes`, { body: "Same on my machine" });
    expect(second.status).toBe(201);
    expect(second.body.note.author).toEqual({ id: "user-member", name: "Max Member" });

    const ro = await readOnly("POST", `/api/v1/calls/${callId}/notes`, { body: "read-only" });
    expect(ro.status).toBe(403);
    expect(ro.body.error.message).toMatch(/read-only/);
    const listed = await readOnly("GET", `/api/v1/calls/${callId}/notes`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((n: { body: string }) => n.body)).toEqual(["Slow answer, **look** at `echo`", "Same on my machine"]);

    // A member may not change somebody else's note; the owner (admin and above) may delete it but
    // not put words in its author's mouth.
    const noteId = first.body.note.id;
    expect((await member("PATCH", `/api/v1/notes/${noteId}`, { body: "mine now" })).status).toBe(403);
    expect((await member("DELETE", `/api/v1/notes/${noteId}`)).status).toBe(403);
    expect((await readOnly("DELETE", `/api/v1/notes/${noteId}`)).status).toBe(403);
    const edited = await member("PATCH", `/api/v1/notes/${second.body.note.id}`, { body: "Same on my machine, twice" });
    expect(edited.status).toBe(200);
    expect(edited.body.note).toMatchObject({ body: "Same on my machine, twice", edited: true, createdAt: second.body.note.createdAt });
    const ownerEditsOthers = await owner("PATCH", `/api/v1/notes/${second.body.note.id}`, { body: "Max agrees" });
    expect(ownerEditsOthers.status).toBe(403);
    expect(ownerEditsOthers.body.error.message).toMatch(/author/);
    const ownerEdit = await owner("PATCH", `/api/v1/notes/${noteId}`, { body: "Slow answer (checked)" });
    expect(ownerEdit.body.note.body).toBe("Slow answer (checked)");
    expect((await owner("DELETE", `/api/v1/notes/${second.body.note.id}`)).status).toBe(204);
    expect((await owner("PATCH", `/api/v1/notes/${second.body.note.id}`, { body: "gone" })).status).toBe(404);

    const call = (await member("GET", `/api/v1/calls/${callId}`)).body.call;
    expect(call.noteCount).toBe(1);
    const row = (await owner("GET", "/api/v1/calls?limit=50")).body.items.find((c: { id: string }) => c.id === callId);
    expect(row.noteCount).toBe(1);
  });

  it("normalises tags, replaces the set, counts them, and filters history with paging intact", async () => {
    const set = await owner("PUT", `/api/v1/calls/${calls[1]}/tags`, { tags: [" Regression ", "slow", "REGRESSION", "team:payments"] });
    expect(set.status).toBe(200);
    expect(set.body.tags).toEqual(["regression", "slow", "team:payments"]);
    expect((await owner("PUT", `/api/v1/calls/${calls[1]}/tags`, { tags: ["two words"] })).status).toBe(400);
    expect((await owner("PUT", `/api/v1/calls/${calls[1]}/tags`, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).status).toBe(400);
    expect((await readOnly("PUT", `/api/v1/calls/${calls[1]}/tags`, { tags: ["x"] })).status).toBe(403);
    // The set is replaced, not merged.
    expect((await owner("PUT", `/api/v1/calls/${calls[1]}/tags`, { tags: ["regression", "batch"] })).body.tags).toEqual(["batch", "regression"]);

    const batch = [calls[1]!, calls[2]!, calls[4]!, calls[6]!];
    for (const id of batch.slice(1)) expect((await member("PUT", `/api/v1/calls/${id}/tags`, { tags: ["Batch"] })).status).toBe(200);
    const newestFirst = [...batch].reverse();
    expect(await allPages(owner, { tag: "batch" })).toEqual(newestFirst);
    expect(await allPages(owner, { tag: "BATCH" }, 3)).toEqual(newestFirst);
    expect(await allPages(owner, { tag: "nothing-has-this" })).toEqual([]);
    expect(await allPages(owner, {}, 3)).toEqual([...calls].reverse());

    const tags = await readOnly("GET", "/api/v1/tags");
    expect(tags.status).toBe(200);
    expect(tags.body.items).toEqual([
      { tag: "batch", count: 4 },
      { tag: "regression", count: 1 },
    ]);
    const call = (await readOnly("GET", `/api/v1/calls/${calls[1]}`)).body.call;
    expect(call.tags).toEqual(["batch", "regression"]);
    const page = (await owner("GET", "/api/v1/calls?tag=batch")).body.items;
    expect(page.every((c: { tags: string[] }) => c.tags.includes("batch"))).toBe(true);

    expect((await owner("PUT", `/api/v1/calls/${calls[6]}/tags`, { tags: [] })).body.tags).toEqual([]);
    expect((await owner("GET", "/api/v1/tags")).body.items[0]).toEqual({ tag: "batch", count: 3 });
  });

  it("keeps stars personal and filters with starred=1", async () => {
    for (const id of [calls[3], calls[5]]) expect((await owner("PUT", `/api/v1/calls/${id}/star`)).body).toEqual({ starred: true });
    expect((await owner("PUT", `/api/v1/calls/${calls[5]}/star`)).status).toBe(200);
    expect((await member("PUT", `/api/v1/calls/${calls[5]}/star`)).status).toBe(200);
    // A read-only token writes nothing, not even its creator's star.
    expect((await readOnly("PUT", `/api/v1/calls/${calls[0]}/star`)).status).toBe(403);
    expect((await owner("PUT", `/api/v1/calls/${calls[0]}/star`)).status).toBe(200);
    expect((await owner("PUT", "/api/v1/calls/no-such-call/star")).status).toBe(404);

    expect(await allPages(owner, { starred: "1" })).toEqual([calls[5], calls[3], calls[0]]);
    expect(await allPages(member, { starred: "1" })).toEqual([calls[5]]);
    expect(await allPages(owner, { starred: "1", tag: "batch" })).toEqual([]);
    expect((await owner("GET", `/api/v1/calls/${calls[5]}`)).body.call.starred).toBe(true);
    expect((await member("GET", `/api/v1/calls/${calls[3]}`)).body.call.starred).toBe(false);

    expect((await owner("DELETE", `/api/v1/calls/${calls[0]}/star`)).body).toEqual({ starred: false });
    expect((await owner("DELETE", `/api/v1/calls/${calls[0]}/star`)).status).toBe(200);
    expect(await allPages(owner, { starred: "1" })).toEqual([calls[5], calls[3]]);
    expect((await owner("GET", "/api/v1/calls?starred=yes")).status).toBe(400);
  });

  it("saves views for the workspace, applies them, and lets the creator or an admin delete them", async () => {
    const created = await owner("POST", "/api/v1/views", { name: " Tuesday batch ", filters: { tag: "batch", status: "ok", q: "" } });
    expect(created.status).toBe(201);
    expect(created.body.view).toMatchObject({ name: "Tuesday batch", filters: { tag: "batch", status: "ok" }, createdBy: { name: "Ada Owner" } });
    expect((await member("POST", "/api/v1/views", { name: "Tuesday batch", filters: {} })).status).toBe(409);
    expect((await owner("POST", "/api/v1/views", { name: "bad", filters: { cursor: "x" } })).status).toBe(400);
    expect((await owner("POST", "/api/v1/views", { name: "bad", filters: { status: "sideways" } })).status).toBe(400);
    expect((await readOnly("POST", "/api/v1/views", { name: "ro", filters: {} })).status).toBe(403);

    // Shared: another member lists it and applies it as the history query.
    const listed = await member("GET", "/api/v1/views");
    const view = listed.body.items.find((v: { name: string }) => v.name === "Tuesday batch");
    expect(view.filters).toEqual({ tag: "batch", status: "ok" });
    expect(await allPages(member, view.filters)).toEqual([calls[4], calls[2], calls[1]]);

    const mine = await member("POST", "/api/v1/views", { name: "My stars", filters: { starred: "1" } });
    expect(mine.status).toBe(201);
    expect(await allPages(member, mine.body.view.filters)).toEqual([calls[5]]);
    expect((await member("DELETE", `/api/v1/views/${view.id}`)).status).toBe(403);
    expect((await member("DELETE", `/api/v1/views/${mine.body.view.id}`)).status).toBe(204);
    const again = await member("POST", "/api/v1/views", { name: "Member's", filters: { method: "tools/call" } });
    expect((await owner("DELETE", `/api/v1/views/${again.body.view.id}`)).status).toBe(204);
    expect((await owner("GET", "/api/v1/views")).body.items.map((v: { name: string }) => v.name)).toEqual(["Tuesday batch"]);
    expect((await owner("DELETE", "/api/v1/views/no-such-view")).status).toBe(404);

    // Views are audited; notes, tags and stars are not.
    {
      const rows = await sb.db.all<{ action: string; actor: string; target: string; details: string }>(
        "SELECT action, actor_name AS actor, target_name AS target, details FROM audit_event WHERE workspace_id = ? ORDER BY id",
        workspaceId,
      );
      const views = rows.filter((r) => r.action.startsWith("view."));
      expect(views.map((r) => [r.action, r.actor, r.target])).toEqual([
        ["view.created", "Ada Owner", "Tuesday batch"],
        ["view.created", "Max Member", "My stars"],
        ["view.deleted", "Max Member", "My stars"],
        ["view.created", "Max Member", "Member's"],
        ["view.deleted", "Ada Owner", "Member's"],
      ]);
      expect(JSON.parse(views[0]!.details)).toEqual({ filters: ["tag", "status"] });
      expect(rows.filter((r) => /^(note|tag|star)/.test(r.action))).toEqual([]);
    }
  });
});
