import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** Polls a run until it ends; answers the finished run. */
async function finished(api: Api, runId: string, timeoutMs = 60_000) {
  let run: any;
  await waitFor(
    async () => {
      run = (await api("GET", `/api/v1/runs/${runId}`)).body.run;
      return run.status !== "running";
    },
    timeoutMs,
    () => JSON.stringify(run),
  );
  return run;
}

describe("collections: steps, runs, environments and roles", () => {
  let sb: ConsoleHandle;
  let first: RunningServer;
  let second: RunningServer;
  let api: Api;
  let ownerToken = "";
  const authed = (path: string) => fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${ownerToken}` } });
  let serverA = "";
  let serverB = "";
  const as: Record<"admin" | "member" | "other" | "viewer", Api> = {} as never;

  beforeAll(async () => {
    [sb, first, second] = await Promise.all([startConsole(), startEverything("streamableHttp"), startEverything("streamableHttp")]);
    const owner = await setupOwner(sb.url);
    api = owner.api;
    ownerToken = owner.token;
    serverA = (await api("POST", "/api/v1/servers", { name: "first", url: first.url })).body.server.id;
    serverB = (await api("POST", "/api/v1/servers", { name: "second", url: second.url })).body.server.id;
    for (const [key, role] of [["admin", "admin"], ["member", "member"], ["other", "member"], ["viewer", "viewer"]] as const) {
      const token = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: `user-${key}`, name: `A ${key}`, email: `${key}@example.com`, role });
      as[key] = apiClient(sb.url, token);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), first?.stop(), second?.stop()]);
  });

  const echo = (message: string, extra: Record<string, unknown> = {}) => ({ serverId: serverA, method: "tools/call", name: "echo", arguments: { message }, ...extra });

  it("creates, lists, reads, changes and deletes a collection in the contract's shapes", async () => {
    const created = await api("POST", "/api/v1/collections", { name: "crud", steps: [echo("hi")], variables: { who: "ada" } });
    expect(created.status).toBe(201);
    const c = created.body.collection;
    expect(c).toMatchObject({ name: "crud", description: null, variables: { who: "ada" }, createdBy: { name: "Ada Owner" }, lastRun: null });
    expect(c.steps).toEqual([{ id: expect.any(String), serverId: serverA, method: "tools/call", name: "echo", arguments: { message: "hi" } }]);
    expect((await api("GET", "/api/v1/collections")).body.items.map((i: any) => i.id)).toContain(c.id);
    expect((await api("GET", "/api/v1/collections?name=crud")).body.items.map((i: any) => i.id)).toEqual([c.id]);
    expect((await api("GET", "/api/v1/collections?name=cru")).body.items).toEqual([]);
    expect((await api("GET", `/api/v1/collections/${c.id}`)).body.collection.steps[0].id).toBe(c.steps[0].id);
    const patched = await api("PATCH", `/api/v1/collections/${c.id}`, { description: "changed", steps: [...c.steps, echo("again", { id: "two" })] });
    expect(patched.status).toBe(200);
    expect(patched.body.collection.description).toBe("changed");
    expect(patched.body.collection.steps.map((s: any) => s.id)).toEqual([c.steps[0].id, "two"]);
    expect((await api("POST", "/api/v1/collections", { name: "crud", steps: [] })).status).toBe(409);
    expect((await api("DELETE", `/api/v1/collections/${c.id}`)).status).toBe(204);
    const gone = await api("GET", `/api/v1/collections/${c.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("not_found");
  });

  it("refuses an unknown server, a bad method and a bad pattern; a missing variable errors its step", async () => {
    const unknown = await api("POST", "/api/v1/collections", { name: "v1", steps: [{ ...echo("x"), serverId: "no-such-server" }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toMatch(/steps\.0\.serverId: no server "no-such-server"/);
    const method = await api("POST", "/api/v1/collections", { name: "v2", steps: [{ ...echo("x"), method: "tools/explode" }] });
    expect(method.status).toBe(400);
    expect(method.body.error.message).toMatch(/^steps\.0\.method/);
    const regex = await api("POST", "/api/v1/collections", { name: "v3", steps: [echo("x", { assert: [{ kind: "json", path: "/content/0/text", matches: "(" }] })] });
    expect(regex.status).toBe(400);
    expect(regex.body.error.message).toMatch(/steps\.0\.assert\.0\.matches: invalid pattern/);

    const c = (await api("POST", "/api/v1/collections", { name: "missing var", steps: [echo("{{nowhere}}"), echo("after")] })).body.collection;
    const started = await api("POST", `/api/v1/collections/${c.id}/runs`, {});
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ status: "running", total: 2 });
    const run = await finished(api, started.body.run.id);
    expect(run.status).toBe("error");
    expect(run.steps[0]).toMatchObject({ status: "error", callId: null });
    expect(run.steps[0].error).toMatch(/nowhere/);
    expect(run.steps[1].status).toBe("skipped");
  });

  it("runs a 100-step collection against server-everything, every step's call in history with origin collection", async () => {
    const steps = Array.from({ length: 100 }, (_, i) => {
      if (i % 10 === 3) return { serverId: serverA, method: "tools/call", name: "get-structured-content", arguments: { location: "Chicago" }, assert: [{ kind: "schema" }, { kind: "json", path: "/structuredContent/humidity", equals: 82 }] };
      if (i % 10 === 7) return { serverId: serverA, method: "tools/call", name: "get-sum", arguments: { a: i, b: 1 }, assert: [{ kind: "json", path: "/content/0/text", contains: `is ${i + 1}` }] };
      if (i === 50) return { serverId: serverA, method: "tools/list", assert: [{ kind: "json", path: "/tools/0/name", matches: "." }] };
      return echo(`step ${i} {{suffix}}`, { assert: [{ kind: "status", equals: "ok" }, { kind: "json", path: "/content/0/text", equals: `Echo: step ${i} done` }, { kind: "duration", maxMs: 30_000 }] });
    });
    const c = (await api("POST", "/api/v1/collections", { name: "hundred", steps, variables: { suffix: "done" } })).body.collection;
    const run = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { origin: "cli" })).body.run.id, 120_000);
    expect(run.steps.filter((s: any) => s.status !== "passed").map((s: any) => ({ index: s.index, error: s.error, assertions: s.assertions.filter((a: any) => !a.passed) }))).toEqual([]);
    expect(run).toMatchObject({ status: "passed", passed: 100, failed: 0, total: 100, origin: "cli", environment: null });
    expect(run.steps[3].assertions[0]).toMatchObject({ kind: "schema", passed: true, message: expect.stringMatching(/outputSchema/) });

    const callSteps = run.steps.filter((s: any) => s.index !== 50);
    expect(callSteps.every((s: any) => typeof s.callId === "string")).toBe(true);
    const history = (await api("GET", "/api/v1/calls?origin=collection&limit=200")).body.items;
    const ids = new Set(history.map((h: any) => h.id));
    expect(callSteps.filter((s: any) => !ids.has(s.callId))).toEqual([]);
    const one = (await api("GET", `/api/v1/calls/${run.steps[0].callId}`)).body.call;
    expect(one).toMatchObject({ origin: "collection", serverId: serverA, name: "echo", params: { name: "echo", arguments: { message: "step 0 done" } } });

    const listed = (await api("GET", `/api/v1/collections/${c.id}/runs`)).body.items;
    expect(listed[0]).toMatchObject({ id: run.id, status: "passed" });
    expect(listed[0].steps).toBeUndefined();
    expect((await api("GET", `/api/v1/collections/${c.id}`)).body.collection.lastRun).toMatchObject({ id: run.id, status: "passed" });
  }, 180_000);

  it("fails the run on a failing json assertion, naming the step and path, in JSON and JUnit", async () => {
    const c = (
      await api("POST", "/api/v1/collections", {
        name: "failing",
        steps: [echo("fine"), { ...echo("wrong", { label: "the wrong echo" }), assert: [{ kind: "json", path: "/content/0/text", equals: "Echo: right" }] }, echo("not reached")],
      })
    ).body.collection;
    const run = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, {})).body.run.id);
    expect(run).toMatchObject({ status: "failed", passed: 1, failed: 1 });
    expect(run.steps.map((s: any) => s.status)).toEqual(["passed", "failed", "skipped"]);
    expect(run.steps[1].label).toBe("the wrong echo");
    expect(run.steps[1].assertions).toEqual([{ kind: "json", passed: false, path: "/content/0/text", message: '/content/0/text: expected "Echo: right", got "Echo: wrong"' }]);

    const all = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { stopOnFailure: false })).body.run.id);
    expect(all.steps.map((s: any) => s.status)).toEqual(["passed", "failed", "passed"]);

    const res = await authed(`/api/v1/runs/${run.id}?format=junit`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toContain("<testsuites");
    expect(xml).toContain("the wrong echo");
    expect(xml).toMatch(/<failure message="[^"]*\/content\/0\/text/);
    expect(xml).toContain("<skipped");
  });

  it("points the same steps at another server through an environment, and reads an earlier step's result", async () => {
    const steps = [
      { id: "weather", serverId: serverA, method: "tools/call", name: "get-structured-content", arguments: { location: "New York" } },
      { serverId: "{{api}}", method: "tools/call", name: "echo", arguments: { message: "{{steps.1#/structuredContent/conditions}} {{steps.weather#/structuredContent/temperature}} {{token}}" }, assert: [{ kind: "json", path: "/content/0/text", equals: "Echo: Cloudy 33 [redacted]" }] },
    ];
    const c = (await api("POST", "/api/v1/collections", { name: "switch", steps })).body.collection;
    const staging = await api("POST", "/api/v1/environments", { name: "staging", values: {}, secrets: { token: "s3cret" }, servers: { [serverA]: serverB, api: serverB } });
    expect(staging.status).toBe(201);
    expect(staging.body.environment).toMatchObject({ name: "staging", secretNames: ["token"], servers: { api: serverB } });
    expect(JSON.stringify(staging.body)).not.toContain("s3cret");
    await api("POST", "/api/v1/environments", { name: "production", secrets: { token: "s3cret" }, servers: { api: serverA } });

    const onStaging = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { environment: "staging" })).body.run.id);
    expect(onStaging).toMatchObject({ status: "passed", environment: "staging" });
    for (const step of onStaging.steps) expect((await api("GET", `/api/v1/calls/${step.callId}`)).body.call.serverId).toBe(serverB);
    // The environment's secret reached the server but history (arguments and result) and the run keep it masked.
    const echoed = (await api("GET", `/api/v1/calls/${onStaging.steps[1].callId}`)).body.call;
    expect(JSON.stringify(echoed)).not.toContain("s3cret");
    expect(JSON.stringify(echoed.arguments ?? echoed.params)).toContain("[redacted]");
    expect(JSON.stringify(onStaging)).not.toContain("s3cret");
    const onProduction = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { environment: "production" })).body.run.id);
    for (const step of onProduction.steps) expect((await api("GET", `/api/v1/calls/${step.callId}`)).body.call.serverId).toBe(serverA);
    expect((await api("POST", `/api/v1/collections/${c.id}/runs`, { environment: "nowhere" })).status).toBe(422);
  });

  it("keeps a step's result as its snapshot on accept, and the next run compares with it", async () => {
    const c = (await api("POST", "/api/v1/collections", { name: "snap", steps: [echo("{{word}}", { id: "s", assert: [{ kind: "snapshot", ignore: ["/_meta"] }] })], variables: { word: "kept" } })).body.collection;
    const before = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, {})).body.run.id);
    expect(before.status).toBe("failed");
    expect(before.steps[0].assertions[0].message).toMatch(/no snapshot kept yet/);
    const accepted = await api("POST", `/api/v1/runs/${before.id}/steps/0/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.collection.steps[0].assert).toEqual([{ kind: "snapshot", ignore: ["/_meta"], expected: { content: [{ type: "text", text: "Echo: kept" }] } }]);
    expect((await api("POST", `/api/v1/runs/${before.id}/steps/7/accept`)).status).toBe(404);
    expect((await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, {})).body.run.id)).status).toBe("passed");
    const changed = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { variables: { word: "moved" } })).body.run.id);
    expect(changed.status).toBe("failed");
    expect(changed.steps[0].assertions[0].diff).toEqual([{ path: "/content/0/text", expected: "Echo: kept", actual: "Echo: moved", change: "changed" }]);
  });

  it("exports to one JSON file without secrets and imports it back", async () => {
    const c = (await api("POST", "/api/v1/collections", { name: "portable", description: "goes to git", variables: { n: 1 }, steps: [echo("{{token}}", { id: "e" })] })).body.collection;
    const res = await authed(`/api/v1/collections/${c.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="portable\.collection\.json"/);
    const file = await res.json();
    expect(file).toEqual({ switchboard: "collection", version: 1, name: "portable", description: "goes to git", variables: { n: 1 }, steps: c.steps });
    expect(JSON.stringify(file)).not.toContain("s3cret");
    expect((await api("POST", "/api/v1/collections/import", file)).status).toBe(409);
    const imported = await api("POST", "/api/v1/collections/import", { ...file, name: "portable copy" });
    expect(imported.status).toBe(201);
    expect(imported.body.collection).toMatchObject({ name: "portable copy", description: "goes to git", variables: { n: 1 }, steps: c.steps });
    expect((await api("POST", "/api/v1/collections/import", { ...file, switchboard: "other" })).status).toBe(400);
  });

  it("fills a run's step labels with its variables; secrets and unknown names stay {{name}}", async () => {
    const c = (await api("POST", "/api/v1/collections", { name: "labels", variables: { city: "Paris" }, steps: [echo("l", { label: "Weather in {{city}} with {{ key }} and {{nobody}}" }), echo("{{city}}")] })).body.collection;
    await api("POST", "/api/v1/environments", { name: "lyon", values: { city: "Lyon" }, secrets: { key: "k3y-secret" } });
    const plain = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, {})).body.run.id);
    expect(plain.steps[0].label).toBe("Weather in Paris with {{ key }} and {{nobody}}");
    const onLyon = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { environment: "lyon" })).body.run.id);
    expect(onLyon.steps[0].label).toBe("Weather in Lyon with {{ key }} and {{nobody}}");
    const own = await finished(api, (await api("POST", `/api/v1/collections/${c.id}/runs`, { environment: "lyon", variables: { city: "Nice", nobody: 3 } })).body.run.id);
    expect(own.steps[0].label).toBe("Weather in Nice with {{ key }} and 3");
    expect(own.steps[1].label).toBe("tools/call echo");
    expect(JSON.stringify(own)).not.toContain("k3y-secret");
  });

  it("imports under another name: a taken name's 409 suggests a free one, ?name= takes it", async () => {
    const file = { switchboard: "collection", version: 1, name: "renamed", variables: {}, steps: [echo("r", { id: "r" })] };
    expect((await api("POST", "/api/v1/collections/import", file)).status).toBe(201);
    expect((await api("POST", "/api/v1/collections/import?name=renamed%20(2)", file)).status).toBe(201);
    const taken = await api("POST", "/api/v1/collections/import", file);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "conflict", details: { name: "renamed", suggestion: "renamed (3)" } });
    const again = await api("POST", `/api/v1/collections/import?name=${encodeURIComponent(taken.body.error.details.suggestion)}`, file);
    expect(again.status).toBe(201);
    expect(again.body.collection).toMatchObject({ name: "renamed (3)", steps: [{ id: "r" }] });
    const blank = await api("POST", "/api/v1/collections/import?name=%20", file);
    expect(blank.status).toBe(400);
  });

  it("lets viewers read, members run and edit their own, admins edit any", async () => {
    const mine = await as.member("POST", "/api/v1/collections", { name: "member's", steps: [echo("m")] });
    expect(mine.status).toBe(201);
    const id = mine.body.collection.id;
    expect((await as.viewer("GET", "/api/v1/collections")).status).toBe(200);
    expect((await as.viewer("GET", `/api/v1/collections/${id}`)).status).toBe(200);
    expect((await as.viewer("GET", "/api/v1/environments")).body.items[0]).not.toHaveProperty("secrets");
    for (const [method, path] of [["POST", `/api/v1/collections/${id}/runs`], ["PATCH", `/api/v1/collections/${id}`], ["POST", "/api/v1/collections"]] as const) {
      const res = await as.viewer(method, path, { name: "v" });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await as.member("POST", "/api/v1/environments", { name: "mine" })).status).toBe(403);
    const run = await as.member("POST", `/api/v1/collections/${id}/runs`, {});
    expect(run.status).toBe(202);
    expect((await finished(as.member, run.body.run.id)).startedBy).toEqual({ id: "user-member", name: "A member" });
    const other = await as.other("PATCH", `/api/v1/collections/${id}`, { description: "not yours" });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toMatch(/author or an admin/);
    expect((await as.other("DELETE", `/api/v1/collections/${id}`)).status).toBe(403);
    expect((await as.member("PATCH", `/api/v1/collections/${id}`, { description: "my own" })).status).toBe(200);
    const byAdmin = await as.admin("PATCH", `/api/v1/collections/${id}`, { description: "an admin's" });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.collection.description).toBe("an admin's");
    const audit = (await api("GET", "/api/v1/audit?limit=200")).body.items.map((e: any) => e.action);
    expect(audit).toEqual(expect.arrayContaining(["collection.created", "collection.updated", "collection.run", "collection.imported", "collection.deleted", "environment.created"]));
  });

  // Last: it stops the console.
  it("marks a run cut short by the console's death interrupted when the console comes back", async () => {
    const slow = { serverId: serverA, method: "tools/call", name: "trigger-long-running-operation", arguments: { duration: 30, steps: 30 } };
    const c = (await api("POST", "/api/v1/collections", { name: "cut short", steps: [slow, echo("never")] })).body.collection;
    const runId = (await api("POST", `/api/v1/collections/${c.id}/runs`, {})).body.run.id;
    await waitFor(async () => (await api("GET", `/api/v1/runs/${runId}`)).body.run.steps[0].status === "running");
    await sb.stop({ crash: true });
    await sb.restart();
    const run = (await api("GET", `/api/v1/runs/${runId}`)).body.run;
    expect(run.status).toBe("interrupted");
    expect(run.finishedAt).toEqual(expect.any(String));
    expect(run.steps.map((s: any) => s.status)).toEqual(["interrupted", "skipped"]);
    expect(run.steps[0].error).toMatch(/instance running this step stopped/);
  }, 60_000);
});
