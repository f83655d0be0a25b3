import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";

/**
 * The policy rules API (docs/governance.md): rules as versioned sets, the refusals of bad rules,
 * rollback, the tester naming the deciding rule, the workspace default, and who may write.
 */
describe("policy rules API", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let viewer: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    sb = await startConsole();
    owner = await setupOwner(sb.url);
    viewer = apiClient(sb.url, await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: "user-viewer", name: "Vi Ewer", email: "vi@example.com", role: "viewer" }));
  }, 120_000);
  afterAll(async () => {
    await sb?.stop();
  });

  const test = async (body: unknown) => {
    const res = await owner.api("POST", "/api/v1/policy-rules/test", body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { decision: string; ruleId: string | null; reason: string };
  };

  it("creates, reads, changes and deletes rules, each change a version with its words and actor", async () => {
    expect((await owner.api("GET", "/api/v1/policy-rules")).body).toEqual({ items: [], version: 0, policyDefault: "allow", updatedAt: null });
    const created = await owner.api("POST", "/api/v1/policy-rules", { name: "no etc", effect: "deny", tools: ["read_*"], when: [{ path: "/path", op: "matches", value: "^/etc/" }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rule = created.body.rule;
    expect(rule).toMatchObject({ id: expect.stringMatching(/^rule_/), name: "no etc", effect: "deny", enabled: true });
    expect((await owner.api("GET", `/api/v1/policy-rules/${rule.id}`)).body.rule).toEqual(rule);

    const patched = await owner.api("PATCH", `/api/v1/policy-rules/${rule.id}`, { enabled: false, tools: null, servers: ["srv-1"] });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.rule).toMatchObject({ enabled: false, servers: ["srv-1"] });
    expect(patched.body.rule.tools).toBeUndefined();

    const list = (await viewer("GET", "/api/v1/policy-rules")).body;
    expect(list).toMatchObject({ version: 2, policyDefault: "allow", items: [patched.body.rule] });
    expect((await owner.api("DELETE", `/api/v1/policy-rules/${rule.id}`)).status).toBe(204);
    expect((await owner.api("GET", `/api/v1/policy-rules/${rule.id}`)).status).toBe(404);

    const versions = (await viewer("GET", "/api/v1/policy-rules/versions")).body.items;
    expect(versions.map((v: { version: number; change: string; ruleCount: number }) => [v.version, v.change, v.ruleCount])).toEqual([
      [3, 'rule "no etc" deleted', 0],
      [2, 'rule "no etc" changed (servers, tools, enabled)', 1],
      [1, 'rule "no etc" created', 1],
    ]);
    expect(versions[0].actor).toEqual({ id: expect.any(String), name: "Ada Owner" });
    const audit = (await owner.api("GET", "/api/v1/audit")).body.items.map((e: { action: string }) => e.action);
    expect(audit).toEqual(expect.arrayContaining(["policy.rule_created", "policy.rule_updated", "policy.rule_deleted"]));
  });

  it("refuses bad rules with 422 naming the field", async () => {
    const bad: [unknown, string][] = [
      [{ name: "x", effect: "deny", when: [{ path: "/a", op: "matches", value: "(?=look)" }] }, "when.0.value"],
      [{ name: "x", effect: "deny", when: [{ path: "no-slash", op: "exists" }] }, "when.0.path"],
      [{ name: "x", effect: "deny", when: [{ path: "/a", op: "lt", value: "5" }] }, "when.0.value"],
      [{ name: "x", effect: "deny", when: [{ path: "/a", op: "in", value: "a" }] }, "when.0.value"],
      [{ name: "x", effect: "deny", principals: { roles: ["root"] } }, "principals.roles.0"],
      [{ name: "x", effect: "approve", timeoutSeconds: 0 }, "timeoutSeconds"],
      [{ name: "x", effect: "deny", rateLimit: { calls: 0, perSeconds: 10 } }, "rateLimit.calls"],
      [{ name: "x", effect: "maybe" }, "effect"],
    ];
    for (const [body, field] of bad) {
      const res = await owner.api("POST", "/api/v1/policy-rules", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe("unprocessable");
      expect(res.body.error.message, JSON.stringify(body)).toMatch(new RegExp(`^${field.replaceAll(".", "\\.")}: `));
    }
  });

  it("tests a call and names the deciding rule; the default and a rollback change the answer", async () => {
    const deny = (await owner.api("POST", "/api/v1/policy-rules", { name: "no passwd", effect: "deny", tools: ["read_file"], when: [{ path: "/path", op: "matches", value: "^/etc/" }] })).body.rule;
    const approve = (await owner.api("POST", "/api/v1/policy-rules", { name: "viewers ask", effect: "approve", tools: ["read_*"], principals: { roles: ["viewer"] } })).body.rule;
    const call = (principal: unknown, args: unknown) => ({ principal, serverId: "srv-1", tool: "read_file", arguments: args });

    expect(await test(call({ role: "member" }, { path: "/tmp/a" }))).toEqual({ decision: "allow", ruleId: null, reason: expect.stringContaining("default") });
    expect(await test(call({ role: "member" }, { path: "/etc/passwd" }))).toEqual({ decision: "deny", ruleId: deny.id, reason: 'Denied by rule "no passwd" (argument /path matches "^/etc/")' });
    expect(await test(call({ userId: "user-viewer" }, { path: "/tmp/a" }))).toMatchObject({ decision: "approve", ruleId: approve.id });
    expect(await test(call({ tokenId: "t-user-viewer" }, { path: "/tmp/a" }))).toMatchObject({ decision: "approve", ruleId: approve.id });

    const before = (await owner.api("GET", "/api/v1/policy-rules")).body.version;
    expect((await owner.api("PATCH", "/api/v1/workspace", { policyDefault: "deny" })).body.workspace.policyDefault).toBe("deny");
    expect((await viewer("GET", "/api/v1/workspace")).body.workspace.policyDefault).toBe("deny");
    expect(await test({ ...call({ role: "member" }, {}), tool: "write_file" })).toMatchObject({ decision: "deny", ruleId: null });

    const rolled = await owner.api("POST", "/api/v1/policy-rules/rollback", { version: before - 1 });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body).toMatchObject({ version: before + 2, policyDefault: "allow", items: [deny] });
    expect(await test(call({ userId: "user-viewer" }, { path: "/tmp/a" }))).toMatchObject({ decision: "allow", ruleId: null });
    expect((await owner.api("GET", "/api/v1/policy-rules/versions")).body.items[0].change).toBe(`rolled back to version ${before - 1}`);
    expect((await owner.api("POST", "/api/v1/policy-rules/rollback", { version: 999 })).status).toBe(404);
  });

  it("loses no change when admins write at once", async () => {
    const start = (await owner.api("GET", "/api/v1/policy-rules")).body;
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => owner.api("POST", "/api/v1/policy-rules", { name: `parallel ${i}`, effect: "allow", tools: [`t${i}`] })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const after = (await owner.api("GET", "/api/v1/policy-rules")).body;
    expect(after.version).toBe(start.version + 8);
    expect(after.items).toHaveLength(start.items.length + 8);
  });

  it("lets viewers read and test but not write", async () => {
    const rule = (await owner.api("GET", "/api/v1/policy-rules")).body.items[0];
    expect((await viewer("POST", "/api/v1/policy-rules", { name: "x", effect: "deny" })).status).toBe(403);
    expect((await viewer("PATCH", `/api/v1/policy-rules/${rule.id}`, { enabled: false })).status).toBe(403);
    expect((await viewer("DELETE", `/api/v1/policy-rules/${rule.id}`)).status).toBe(403);
    expect((await viewer("POST", "/api/v1/policy-rules/rollback", { version: 1 })).status).toBe(403);
    expect((await viewer("PATCH", "/api/v1/workspace", { policyDefault: "deny" })).status).toBe(403);
    expect((await viewer("POST", "/api/v1/policy-rules/test", { principal: { role: "admin" }, serverId: "s", tool: "t" })).status).toBe(200);
  });
});
