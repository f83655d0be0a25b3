import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** A value under a field only the workspace's own redaction list names ("vault"). */
const SECRET = "vault-value-never-public-7f3a";
/** An environment secret the steps use through a variable. */
const ENV_SECRET = "env-secret-never-public-91c2";

describe("share links of collection runs: public, redacted, revocable", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let api: Api;
  let workspaceId = "";
  let serverId = "";
  let collectionId = "";
  let runId = "";
  let callIds: string[] = [];

  const openJson = (url: string) => fetch(url, { headers: { accept: "application/json" } });
  const audits = (action: string) => sb.db.all<{ target_type: string; target_id: string; details: string }>("SELECT target_type, target_id, details FROM audit_event WHERE action = ?", action);
  const shareRun = (body: unknown = {}, client: Api = api, id = runId) => client("POST", `/api/v1/runs/${id}/share`, body);

  beforeAll(async () => {
    [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    workspaceId = owner.workspace.id;
    expect((await api("PATCH", "/api/v1/workspace", { redactionKeys: ["vault"] })).status).toBe(200);
    serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 })).body.server.id;
    const env = await api("POST", "/api/v1/environments", { name: "staging", secrets: { apiPassword: ENV_SECRET } });
    expect(env.status).toBe(201);
    const message = JSON.stringify({ vault: SECRET, note: "hello run" });
    const collection = await api("POST", "/api/v1/collections", {
      name: "shared smoke",
      steps: [
        { serverId, method: "tools/call", name: "echo", arguments: { message: "{{apiPassword}} first" }, assert: [{ kind: "json", path: "/content/0/text", equals: "something else" }] },
        {
          serverId,
          method: "tools/call",
          name: "echo",
          arguments: { message },
          assert: [
            { kind: "json", path: "/content/0/text", equals: "not the echo" },
            { kind: "snapshot", expected: { content: [{ type: "text", text: "an older echo" }] } },
          ],
        },
      ],
    });
    expect(collection.status).toBe(201);
    collectionId = collection.body.collection.id;
    const started = await api("POST", `/api/v1/collections/${collectionId}/runs`, { environment: "staging", stopOnFailure: false });
    expect(started.status).toBe(202);
    runId = started.body.run.id;
    let run: any;
    await waitFor(async () => {
      run = (await api("GET", `/api/v1/runs/${runId}`)).body.run;
      return run.status !== "running";
    }, 60_000);
    expect(run.status).toBe("failed");
    // The run itself (for its members) quotes the value under "vault": what the public link must not.
    expect(JSON.stringify(run)).toContain(SECRET);
    callIds = run.steps.map((s: { callId: string }) => s.callId);
    expect(callIds.every(Boolean)).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  function expectNothingPrivate(text: string) {
    for (const secret of [SECRET, ENV_SECRET, workspaceId, serverId, collectionId, runId, ...callIds, "Ada Owner", "ada@example.com"]) {
      expect(text, `leaks ${secret}`).not.toContain(secret);
    }
  }

  it("shares a failed run; anyone opens it without auth, redacted, as JSON and as a page", async () => {
    const created = await shareRun({ expiresInDays: 7 });
    expect(created.status).toBe(201);
    const share = created.body.share;
    expect(share).toMatchObject({ runId, callId: null, call: null, run: { collectionName: "shared smoke", status: "failed" }, status: "active", canRevoke: true });
    expect(share.url).toMatch(new RegExp(`^${sb.url}/s/sbs_[\\w-]{43}$`));
    const token = share.url.split("/s/")[1];

    const json = await fetch(`${sb.url}/api/v1/public/shares/${token}`);
    expect(json.status).toBe(200);
    expect(json.headers.get("cache-control")).toBe("no-store");
    const text = await json.text();
    expectNothingPrivate(text);
    const body = JSON.parse(text);
    expect(body.kind).toBe("run");
    expect(body.run).toMatchObject({ collectionName: "shared smoke", status: "failed", environment: "staging", passed: 0, failed: 2, total: 2 });
    const [first, second] = body.run.steps;
    expect(first).toMatchObject({ index: 0, label: "tools/call echo", status: "failed" });
    expect(first.assertions[0]).toMatchObject({ kind: "json", passed: false, message: expect.stringContaining("/content/0/text: expected") });
    expect(first.assertions[0].message).toContain("[redacted] first");
    expect(second.assertions.map((a: { kind: string; passed: boolean }) => [a.kind, a.passed])).toEqual([["json", false], ["snapshot", false]]);
    expect(second.assertions[0].message).toContain("hello run");
    const diff = second.assertions[1].diff;
    expect(diff).toContainEqual(expect.objectContaining({ path: "/content/0/text", expected: "an older echo", change: "changed" }));
    expect(JSON.stringify(diff)).toContain("[redacted]");
    expect(JSON.stringify(body.run.steps)).not.toMatch(/callId|stepId/);
    expect(body.share).toEqual({ createdAt: share.createdAt, expiresAt: share.expiresAt });

    expect((await (await openJson(share.url)).json()).run).toEqual(body.run);
    const html = await fetch(share.url, { headers: { accept: "text/html" } });
    expect(html.status).toBe(200);
    const page = await html.text();
    // One prerendered shell for every link, served with what the API answers (lib/domains/shares/page-front.ts).
    const served = JSON.parse(page.match(/<script id="sb-share" type="application\/json">(.*?)<\/script>/s)![1]!);
    expect(served).toEqual({ status: 200, body });
    expect(served.body.run.collectionName).toBe("shared smoke");
    expect(page).not.toMatch(/href="\/(calls|runs|collections|servers|history|settings)/);
    expectNothingPrivate(page);

    const listed = (await api("GET", "/api/v1/shares")).body.items.find((s: { id: string }) => s.id === share.id);
    expect(listed).toMatchObject({ runId, callId: null, viewCount: 3, run: { collectionName: "shared smoke" } });
    expect(await audits("share.created")).toContainEqual(expect.objectContaining({ target_type: "run", target_id: runId }));
  });

  it("revokes a run's link with the share routes: the URL is gone (410) and the audit names the run", async () => {
    const { id, url } = (await shareRun()).body.share;
    expect((await openJson(url)).status).toBe(200);
    expect((await api("DELETE", `/api/v1/shares/${id}`)).status).toBe(204);
    const gone = await openJson(url);
    expect(gone.status).toBe(410);
    expect((await gone.json()).error.code).toBe("gone");
    expect(await audits("share.revoked")).toContainEqual(expect.objectContaining({ target_type: "run", target_id: runId }));
  });

  it("refuses a viewer (403), another workspace's or unknown run (404), and a bad expiry (400)", async () => {
    const id = crypto.randomUUID();
    const viewer = apiClient(sb.url, await insertMember(sb.db, { workspaceId, userId: id, name: "Vic Viewer", email: `${id}@example.com`, role: "viewer" }));
    expect((await viewer("GET", `/api/v1/runs/${runId}`)).status).toBe(200);
    const refused = await shareRun({}, viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect((await shareRun({}, api, "no-such-run")).status).toBe(404);
    const past = await shareRun({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toMatch(/future/);
  });

  it("the table holds a call or a run, never both nor neither", async () => {
    const insert = (callId: string | null, run: string | null) =>
      sb.db.run(
        "INSERT INTO share (id, workspace_id, call_id, run_id, token_hash, token_secret, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
        crypto.randomUUID(),
        workspaceId,
        callId,
        run,
        crypto.randomUUID(),
        "sealed",
        "someone",
      );
    await expect(insert(null, null)).rejects.toThrow(/share_target_check|CHECK/i);
    await expect(insert(callIds[0]!, runId)).rejects.toThrow(/share_target_check|CHECK/i);
  });
});
