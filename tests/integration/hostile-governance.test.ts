import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
type Answer = { status: number; body: any };

const RULES = "/api/v1/policy-rules";
const LONG_A = "a".repeat(100_000);

/** A refused rule body: 422 `unprocessable` naming the field (message "<path>: …", zod's issues in details). */
function expectFieldError(res: Answer, field: string, what: unknown) {
  expect(res.status, `${JSON.stringify(what).slice(0, 200)} → ${JSON.stringify(res.body).slice(0, 300)}`).toBe(422);
  expect(res.body.error.code).toBe("unprocessable");
  expect(res.body.error.message.startsWith(`${field}: `), res.body.error.message).toBe(true);
  expect(res.body.error.details.issues[0].path.join(".")).toBe(field);
}

/**
 * Hostile input to the governance routes (docs/governance.md, docs/api.md "Policy rules"): rule
 * bodies built to stall, pollute, overflow or confuse; ids in paths built to escape or inject; and
 * proxy headers that must not sway the tester. Every answer is a 4xx or the documented success,
 * never a 500, and the console keeps answering.
 */
describe("hostile input: governance rules, ids and headers", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let serverId = "";

  /** A body sent as JSON text exactly as written (object literals cannot carry an own `__proto__`). */
  const rawJson = async (method: string, path: string, text: string, token: string): Promise<Answer> => {
    const res = await fetch(`${sb.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: text });
    const body = await res.text();
    return { status: res.status, body: body ? JSON.parse(body) : null };
  };
  let token = "";
  const stillAnswers = async () => {
    const list = await api("GET", RULES);
    expect(list.status).toBe(200);
    return list.body as { items: any[]; version: number };
  };

  beforeAll(async () => {
    sb = await startConsole();
    const owner = await setupOwner(sb.url);
    api = owner.api;
    token = owner.token;
    serverId = (await api("POST", "/api/v1/servers/demo")).body.server.id;
  }, 120_000);
  afterAll(async () => {
    await sb?.stop();
  });

  it("accepts catastrophic-backtracking patterns (RE2 is linear) and decides on 100 000 characters", async () => {
    const rules: string[] = [];
    for (const [name, value] of [["redos a", "(a+)+$"], ["redos x", "(x+x+)+y"]] as const) {
      const res = await api("POST", RULES, { name, effect: "deny", tools: ["hello"], when: [{ path: "/name", op: "matches", value }] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.rule.when).toEqual([{ path: "/name", op: "matches", value }]);
      rules.push(res.body.rule.id);
    }
    const tester = (name: string) => api("POST", `${RULES}/test`, { principal: { role: "member" }, serverId, tool: "hello", arguments: { name } });
    // No a's at the end: neither pattern is found; all a's: "(a+)+$" is.
    for (const [name, decision] of [[`${LONG_A}!`, "allow"], ["x".repeat(100_000), "allow"], [LONG_A, "deny"]] as const) {
      const res = await tester(name);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      expect(res.body.decision).toBe(decision);
      if (decision === "deny") expect(res.body.ruleId).toBe(rules[0]);
    }
    // A real call with that argument is decided too: refused by the rule or by the tool's schema, never a 500.
    for (const name of [`${LONG_A}!`, LONG_A]) {
      const call = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "hello", arguments: { name } });
      expect([403, 422], JSON.stringify(call.body).slice(0, 300)).toContain(call.status);
    }
    for (const id of rules) expect((await api("DELETE", `${RULES}/${id}`)).status).toBe(204);
  }, 120_000);

  it("refuses patterns RE2 does not take, wrong types, bad pointers and huge names, 422 naming the field", async () => {
    const rule = (extra: object) => ({ name: "hostile", effect: "deny", ...extra });
    const bad: [unknown, string][] = [
      [rule({ when: [{ path: "/a", op: "matches", value: "(?<=a)b" }] }), "when.0.value"],
      [rule({ when: [{ path: "/a", op: "matches", value: "(a" }] }), "when.0.value"],
      [rule({ when: [{ path: "/a", op: "exists" }, { path: "/b", op: "matches", value: "\\1(a)" }] }), "when.1.value"],
      [rule({ effect: "maybe" }), "effect"],
      [rule({ effect: "approve", timeoutSeconds: -1 }), "timeoutSeconds"],
      [rule({ effect: "approve", timeoutSeconds: 10 ** 12 }), "timeoutSeconds"],
      [rule({ effect: "approve", timeoutSeconds: "300" }), "timeoutSeconds"],
      [rule({ rateLimit: { calls: 0, perSeconds: 60 } }), "rateLimit.calls"],
      [rule({ when: [{ path: "/a~2", op: "exists" }] }), "when.0.path"],
      [rule({ when: [{ path: "a/b", op: "exists" }] }), "when.0.path"],
      [rule({ when: [{ path: "/a", op: "exists" }], tools: "hello" }), "tools"],
      [rule({ name: "n".repeat(10_000) }), "name"],
      [rule({ tools: Array.from({ length: 5000 }, (_, i) => `tool_${i}`) }), "tools"],
      [rule({ principals: { members: Array.from({ length: 5000 }, (_, i) => `user_${i}`) } }), "principals.members"],
      [rule({ when: [{ path: "/a", op: "in", value: Array.from({ length: 5000 }, (_, i) => i) }] }), "when.0.value"],
    ];
    for (const [body, field] of bad) expectFieldError(await api("POST", RULES, body), field, body);
    // rateLimit without perSeconds is refused too (whichever of its fields is named first).
    const half = await api("POST", RULES, rule({ rateLimit: { calls: 0 } }));
    expect([half.status, half.body.error?.message]).toEqual([422, expect.stringMatching(/^rateLimit\.(calls|perSeconds): /)]);
    // The same checks guard PATCH.
    const created = await api("POST", RULES, rule({ tools: ["t"] }));
    expect(created.status).toBe(201);
    expectFieldError(await api("PATCH", `${RULES}/${created.body.rule.id}`, { when: [{ path: "/x", op: "matches", value: "(a" }] }), "when.0.value", "PATCH");
    // "" is a JSON pointer (the whole arguments, RFC 6901): kept as given.
    const whole = await api("PATCH", `${RULES}/${created.body.rule.id}`, { when: [{ path: "", op: "exists" }] });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.rule.when).toEqual([{ path: "", op: "exists" }]);
    expect((await api("DELETE", `${RULES}/${created.body.rule.id}`)).status).toBe(204);
    expect((await stillAnswers()).items).toEqual([]);
  });

  it("refuses a 2 MB body with 413 and writes nothing", async () => {
    const before = (await stillAnswers()).version;
    const res = await api("POST", RULES, { name: "big", effect: "deny", tools: ["t"], when: [{ path: "/a", op: "equals", value: "x".repeat(2 * 1024 * 1024) }] });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "payload_too_large", details: { maxBytes: expect.any(Number) } });
    expect((await stillAnswers()).version).toBe(before);
  });

  it("refuses or drops prototype-polluting keys: a later GET carries no unexpected keys", async () => {
    const refused = [
      '{"name":"p1","effect":"deny","__proto__":{"polluted":true}}',
      '{"name":"p2","effect":"deny","principals":{"__proto__":{"roles":["owner"]}}}',
      '{"name":"p3","effect":"deny","principals":{"constructor":{"prototype":{"polluted":true}}}}',
      '{"name":"p4","effect":"deny","approvers":{"__proto__":{"polluted":true}}}',
    ];
    for (const text of refused) {
      const res = await rawJson("POST", RULES, text, token);
      expect(res.status, `${text} → ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.error.code).toBe("unprocessable");
    }
    // In a condition unknown keys are dropped: what is stored is path, op and value only.
    const kept = await rawJson("POST", RULES, '{"name":"p5","effect":"deny","tools":["hello"],"when":[{"path":"/__proto__/polluted","op":"exists","__proto__":{"op":"equals"},"constructor":{"x":1}}]}', token);
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    const got = await api("GET", `${RULES}/${kept.body.rule.id}`);
    expect(got.status).toBe(200);
    expect(Object.keys(got.body.rule).sort()).toEqual(["effect", "enabled", "id", "name", "tools", "when"]);
    expect(got.body.rule.when).toEqual([{ path: "/__proto__/polluted", op: "exists" }]);
    expect(Object.keys(got.body.rule.when[0]).sort()).toEqual(["op", "path"]);
    // The pointer reads own keys only: arguments with an own "__proto__" key match it, {} does not.
    const test = (args: string) => rawJson("POST", `${RULES}/test`, `{"principal":{"role":"member"},"serverId":"${serverId}","tool":"hello","arguments":${args}}`, token);
    const own = await test('{"__proto__":{"polluted":1}}');
    const none = await test("{}");
    expect([own.status, none.status]).toEqual([200, 200]);
    expect(none.body).toMatchObject({ decision: "allow", ruleId: null });
    expect(["allow", "deny"]).toContain(own.body.decision);
    expect(((await stillAnswers()).items as { name: string }[]).map((r) => r.name)).toEqual(["p5"]);
    expect((await api("DELETE", `${RULES}/${kept.body.rule.id}`)).status).toBe(204);
  });

  it("stores control and bidi characters in a name exactly as given, or refuses them; the list still loads", async () => {
    const name = "ok\u0007\u202Egnp.exe\u2066 \u200B\u0000end";
    const res = await api("POST", RULES, { name, effect: "allow", tools: ["x"] });
    // PostgreSQL cannot store NUL: the console refuses such a request (400) on either database's behalf there.
    expect([201, 400, 422], JSON.stringify(res.body)).toContain(res.status);
    const list = await stillAnswers();
    if (res.status === 201) {
      expect(res.body.rule.name).toBe(name);
      expect((await api("GET", `${RULES}/${res.body.rule.id}`)).body.rule.name).toBe(name);
      expect(list.items.map((r) => r.name)).toContain(name);
      expect((await api("GET", `${RULES}/versions`)).status).toBe(200);
      expect((await api("DELETE", `${RULES}/${res.body.rule.id}`)).status).toBe(204);
    } else expect(list.items.map((r) => r.name)).not.toContain(name);
  });

  it("answers hostile ids in paths with 404 or 400, never 500", async () => {
    const ids = ["..%2F..%2Fetc", "..%2F..%2F..%2Fapi%2Fv1%2Fworkspace", "x".repeat(5000), encodeURIComponent("' OR '1'='1"), encodeURIComponent('"; DROP TABLE member; --'), "%00", "a%00b", "%E2%80%AE", "%ff%fe", "__proto__", "constructor"];
    const routes = (id: string): [string, string, unknown?][] => [
      ["GET", `${RULES}/${id}`],
      ["PATCH", `${RULES}/${id}`, { enabled: false }],
      ["DELETE", `${RULES}/${id}`],
      ["POST", `/api/v1/approvals/${id}/approve`, {}],
      ["POST", `/api/v1/approvals/${id}/deny`, { reason: "no" }],
      ["GET", `/api/v1/virtual-servers/${id}`],
      ["PATCH", `/api/v1/virtual-servers/${id}`, { name: "renamed" }],
      ["DELETE", `/api/v1/virtual-servers/${id}`],
      ["PATCH", `/api/v1/servers/${id}`, { pinDefinitions: true }],
      ["POST", `/api/v1/servers/${id}/capabilities/approve`, { snapshotId: "x" }],
    ];
    for (const id of ids) {
      for (const [method, path, body] of routes(id)) {
        const res = await api(method, path, body);
        expect([400, 404], `${method} ${path.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`).toContain(res.status);
        expect(res.body.error.code).toMatch(/^(bad_request|not_found)$/);
      }
    }
    // Hostile snapshot ids for a real server.
    for (const snapshotId of ["../../x", "x".repeat(5000), "' OR 1=1 --", "a\u0000b"]) {
      const res = await api("POST", `/api/v1/servers/${serverId}/capabilities/approve`, { snapshotId });
      expect([400, 404, 422], `${snapshotId.slice(0, 40)} → ${JSON.stringify(res.body).slice(0, 200)}`).toContain(res.status);
    }
    for (const snapshotId of [42, null, { $ne: "" }, ["x"]]) expect((await api("POST", `/api/v1/servers/${serverId}/capabilities/approve`, { snapshotId })).status).toBe(400);
    await stillAnswers();
  });

  it("refuses rollbacks to versions that do not exist or are not versions (4xx), changing nothing", async () => {
    const created = await api("POST", RULES, { name: "versioned", effect: "allow", tools: ["t"] });
    expect(created.status).toBe(201);
    const before = await stillAnswers();
    for (const version of [before.version + 1, 999_999, 2 ** 31, 2 ** 53, 0, -1, 1.5, "1", "1; DROP TABLE policy_set", null, [1], { $gt: 0 }]) {
      const res = await api("POST", `${RULES}/rollback`, { version });
      const what = `${JSON.stringify(version)} → ${res.status} ${JSON.stringify(res.body)}`;
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      expect(res.body.error.code).toMatch(/^(bad_request|not_found|unprocessable)$/);
    }
    expect((await api("POST", `${RULES}/rollback`, { version: before.version + 1 })).status).toBe(404);
    for (const limit of ["-1", "0", "1e12", "abc", "%00", "1;DROP"]) expect((await api("GET", `${RULES}/versions?limit=${limit}`)).status, limit).toBe(400);
    expect(await stillAnswers()).toEqual(before);
    expect((await api("DELETE", `${RULES}/${created.body.rule.id}`)).status).toBe(204);
  });

  it("decides the same whatever Host and X-Forwarded-* headers say", async () => {
    const deny = await api("POST", RULES, { name: "no hello for members", effect: "deny", tools: ["hello"], principals: { roles: ["member"] } });
    expect(deny.status).toBe(201);
    const body = JSON.stringify({ principal: { role: "member" }, serverId, tool: "hello", arguments: { name: "Ada" } });
    const send = (headers: Record<string, string>) =>
      new Promise<Answer>((resolve, reject) => {
        const req = http.request(`${sb.url}${RULES}/test`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers } }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        req.end(body);
      });
    const plain = await send({});
    expect(plain).toEqual({ status: 200, body: { decision: "deny", ruleId: deny.body.rule.id, reason: expect.stringContaining("no hello for members") } });
    const hostile: Record<string, string>[] = [
      { host: "evil.example" },
      { host: "localhost:1", "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https", "x-forwarded-for": "10.0.0.1, 127.0.0.1" },
      { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", forwarded: "for=127.0.0.1;host=admin.internal;proto=https" },
      { "x-forwarded-user": "admin", "x-forwarded-role": "owner", "x-workspace-role": "owner" },
    ];
    for (const headers of hostile) expect(await send(headers), JSON.stringify(headers)).toEqual(plain);
    expect((await api("DELETE", `${RULES}/${deny.body.rule.id}`)).status).toBe(204);
  });
});
