import { describe, expect, it } from "vitest";
import type { PolicyDefault, PolicyRequest, PolicyRule, PolicySubject } from "@/lib/domains/policies";
import { compileSet, evaluate, listing } from "@/lib/domains/policies/engine";
import { cedarDecimal, globMatch, parsePointer, specificity } from "@/lib/domains/policies/match";

let version = 0;
const set = (rules: Omit<PolicyRule, "id" | "enabled" | "name">[] & Partial<PolicyRule>[], policyDefault: PolicyDefault = "allow") =>
  compileSet({ workspaceId: "ws1", version: ++version, policyDefault, rules: rules.map((r, i) => ({ id: `r${i}`, name: `rule ${i}`, enabled: true, ...r }) as PolicyRule) });

const member: PolicySubject = { workspaceId: "ws1", role: "member", userId: "u1", tokenId: null, clientId: null, groups: [] };
const call = (name: string, args: unknown = {}, over: Partial<PolicyRequest> = {}): PolicyRequest => ({ subject: member, serverId: "s1", kind: "tool", name, arguments: args, ...over });
const decide = (s: ReturnType<typeof set>, r: PolicyRequest) => evaluate(s, r).decision;

describe("policy engine", () => {
  it("applies the default when no rule matches, and names the rule that decides", () => {
    expect(decide(set([]), call("x"))).toMatchObject({ effect: "allow", rule: null });
    expect(decide(set([], "deny"), call("x"))).toMatchObject({ effect: "deny", rule: null });
    const s = set([{ effect: "deny", tools: ["delete_*"] }]);
    expect(decide(s, call("delete_file"))).toMatchObject({ effect: "deny", rule: { id: "r0", name: "rule 0" } });
    expect(decide(s, call("read_file")).effect).toBe("allow");
  });

  it("matches globs with * only, other characters literally", () => {
    expect(globMatch("a*c", "abbbc")).toBe(true);
    expect(globMatch("a*c", "abbbd")).toBe(false);
    expect(globMatch("a.c", "abc")).toBe(false);
    expect(globMatch("*", "")).toBe(true);
    const s = set([{ effect: "deny", tools: ['we"ird\\*'] }, { effect: "deny", tools: ["a.c", "x?y"] }]);
    expect(decide(s, call('we"ird\\tool')).effect).toBe("deny");
    expect(decide(s, call("abc")).effect).toBe("allow");
    expect(decide(s, call("a.c")).effect).toBe("deny");
    expect(decide(s, call("xzy")).effect).toBe("allow");
  });

  it("targets servers, kinds and principals", () => {
    const s = set([
      { effect: "deny", servers: ["s2"] },
      { effect: "deny", prompts: ["p*"] },
      { effect: "deny", tools: ["t"], principals: { roles: ["viewer"], tokens: ["tok"], groups: ["ops"] } },
    ]);
    expect(decide(s, call("x", {}, { serverId: "s2" })).effect).toBe("deny");
    expect(decide(s, call("p1")).effect).toBe("allow");
    expect(decide(s, call("p1", {}, { kind: "prompt" })).effect).toBe("deny");
    expect(decide(s, call("t")).effect).toBe("allow");
    expect(decide(s, call("t", {}, { subject: { ...member, role: "viewer" } })).effect).toBe("deny");
    expect(decide(s, call("t", {}, { subject: { ...member, tokenId: "tok" } })).effect).toBe("deny");
    expect(decide(s, call("t", {}, { subject: { ...member, groups: ["dev", "ops"] } })).effect).toBe("deny");
    // A group named with * or NUL is a plain name, never a pattern or a separator.
    const g = set([{ effect: "deny", principals: { groups: ["a*", "x\u0000role:member"] } }]);
    expect(decide(g, call("t", {}, { subject: { ...member, groups: ["abc"] } })).effect).toBe("allow");
    expect(decide(g, call("t", {}, { subject: { ...member, groups: ["x"] } })).effect).toBe("allow");
    expect(decide(g, call("t", {}, { subject: { ...member, groups: ["a*"] } })).effect).toBe("deny");
  });

  it("evaluates each condition operator", () => {
    const s = set([
      { effect: "deny", tools: ["eq"], when: [{ path: "/a", op: "equals", value: { y: [1, 2], x: "s" } }] },
      { effect: "deny", tools: ["in"], when: [{ path: "/a", op: "in", value: [1, "two", null] }] },
      { effect: "deny", tools: ["re"], when: [{ path: "/path", op: "matches", value: "^/etc/" }] },
      { effect: "deny", tools: ["lt"], when: [{ path: "/n", op: "lt", value: 10.5 }] },
      { effect: "deny", tools: ["gt"], when: [{ path: "/n", op: "gt", value: -3 }] },
      { effect: "deny", tools: ["ex"], when: [{ path: "/a/0", op: "exists" }] },
    ]);
    expect(decide(s, call("eq", { a: { x: "s", y: [1, 2] } })).effect).toBe("deny");
    expect(decide(s, call("eq", { a: { x: "s", y: [2, 1] } })).effect).toBe("allow");
    expect(decide(s, call("in", { a: "two" })).effect).toBe("deny");
    expect(decide(s, call("in", { a: null })).effect).toBe("deny");
    expect(decide(s, call("in", { a: "1" })).effect).toBe("allow");
    expect(decide(s, call("in", {})).effect).toBe("allow");
    expect(decide(s, call("re", { path: "/etc/passwd" })).effect).toBe("deny");
    expect(decide(s, call("re", { path: "/tmp/a" })).effect).toBe("allow");
    expect(decide(s, call("re", { path: ["/etc/passwd"] })).effect).toBe("allow");
    expect(decide(s, call("re", { path: 5 })).effect).toBe("allow");
    expect(decide(s, call("lt", { n: 10.4999 })).effect).toBe("deny");
    expect(decide(s, call("lt", { n: 10.5 })).effect).toBe("allow");
    expect(decide(s, call("lt", { n: "1" })).effect).toBe("allow");
    expect(decide(s, call("lt", { n: 1e-9 })).effect).toBe("allow");
    expect(decide(s, call("gt", { n: 0 })).effect).toBe("deny");
    expect(decide(s, call("gt", { n: -4 })).effect).toBe("allow");
    expect(decide(s, call("ex", { a: [0] })).effect).toBe("deny");
    expect(decide(s, call("ex", { a: [] })).effect).toBe("allow");
    expect(decide(s, call("ex", "not an object")).effect).toBe("allow");
  });

  it("lets the most specific rule win, deny > approve > allow among equals, disabled rules never", () => {
    const s = set([
      { effect: "deny", tools: ["*"] },
      { effect: "allow", tools: ["read_*"] },
      { effect: "approve", tools: ["read_secret"] },
      { effect: "allow", tools: ["read_secret"], principals: { members: ["u1"] } },
      { effect: "allow", tools: ["t"] },
      { effect: "approve", tools: ["t"], timeoutSeconds: 30, approvers: { roles: ["member"] } },
      { effect: "deny", tools: ["t"], enabled: false },
    ]);
    expect(decide(s, call("write"))).toMatchObject({ effect: "deny", rule: { id: "r0" } });
    expect(decide(s, call("read_file"))).toMatchObject({ effect: "allow", rule: { id: "r1" } });
    expect(decide(s, call("read_secret", {}, { subject: { ...member, userId: "u2" } }))).toMatchObject({ effect: "approve", rule: { id: "r2" } });
    expect(decide(s, call("read_secret"))).toMatchObject({ effect: "allow", rule: { id: "r3" } });
    expect(decide(s, call("t"))).toMatchObject({ effect: "approve", rule: { id: "r5" }, approval: { timeoutSeconds: 30, approverRoles: ["owner", "admin", "member"] } });
    expect(specificity({ id: "", name: "", effect: "allow", enabled: true, tools: ["x"], servers: ["s"], principals: { roles: ["admin"], members: ["u"] }, when: [{ path: "/a", op: "exists" }] })).toBe(8 + 2 + 1 + 1);
  });

  it("names the argument condition in the reason", () => {
    const s = set([{ name: "no etc", effect: "deny", tools: ["read"], when: [{ path: "/path", op: "matches", value: "^/etc" }] }]);
    expect(decide(s, call("read", { path: "/etc/passwd" })).reason).toBe('Denied by rule "no etc" (argument /path matches "^/etc")');
  });

  it("keeps a pathological RE2 pattern linear", () => {
    const s = set([{ effect: "deny", tools: ["re"], when: [{ path: "/s", op: "matches", value: "^(a+)+$" }] }]);
    const from = performance.now();
    expect(decide(s, call("re", { s: `${"a".repeat(20_000)}!` })).effect).toBe("allow");
    expect(performance.now() - from).toBeLessThan(2000);
  });

  it("reads hostile pointers as plain keys, never the prototype", () => {
    expect(parsePointer("a")).toBeNull();
    expect(parsePointer("/a~2")).toBeNull();
    expect(parsePointer("/a~1b/~0")).toEqual(["a/b", "~"]);
    const hostile = ["/__proto__", "/constructor", '/"} || true || {"', "/a\u0000\n\u2028", "/~1~0\\"];
    const s = set(hostile.map((path) => ({ effect: "deny" as const, tools: ["h"], when: [{ path, op: "exists" as const }] })));
    expect(decide(s, call("h", {})).effect).toBe("allow");
    expect(decide(s, call("h", JSON.parse('{"__proto__": 1}'))).effect).toBe("deny");
    expect(decide(s, call("h", { '"} || true || {"': 1 })).effect).toBe("deny");
    expect(decide(s, call("h", { "a\u0000\n\u2028": 1 })).effect).toBe("deny");
    expect(decide(s, call("h", { "/~\\": 1 })).effect).toBe("deny");
    expect(decide(s, call("h", { constructor: undefined })).effect).toBe("allow");
  });

  it("holds Cedar decimals to what they can represent", () => {
    expect(cedarDecimal(3)).toBe("3.0");
    expect(cedarDecimal(-0.25)).toBe("-0.25");
    expect(cedarDecimal(0.12345)).toBeNull();
    expect(cedarDecimal(1e20)).toBeNull();
    expect(cedarDecimal(Number.NaN)).toBeNull();
  });

  it("decides among 500 rules and lists what a caller may call", () => {
    const rules = Array.from({ length: 500 }, (_, i) => ({ effect: (i % 2 ? "allow" : "deny") as "allow" | "deny", servers: [`s${i % 10}`], tools: [`tool_${i}`, `grp${i % 7}_*`], when: i % 3 ? [{ path: "/n", op: "gt" as const, value: i }] : undefined }));
    const s = set(rules, "deny");
    expect(decide(s, call("tool_0", { n: 1 }, { serverId: "s0" }))).toMatchObject({ effect: "deny", rule: { id: "r0" } });
    expect(decide(s, call("tool_1", { n: 1000 }, { serverId: "s1" }))).toMatchObject({ effect: "allow", rule: { id: "r1" } });
    expect(decide(s, call("tool_1", { n: 0 }, { serverId: "s1" })).rule).toBeNull();
    const shown = listing(s, member, "s1", "tool", ["tool_1", "tool_11", "nothing"]);
    expect([...shown]).toEqual([["tool_1", "allow"], ["tool_11", "allow"]]);
  });

  it("hides only what is denied whatever the arguments", () => {
    const s = set([
      { effect: "deny", tools: ["*"] },
      { effect: "allow", tools: ["w"], when: [{ path: "/p", op: "matches", value: "^/tmp" }] },
      { effect: "approve", tools: ["a"] },
      { effect: "deny", tools: ["c"], when: [{ path: "/x", op: "exists" }] },
      { effect: "allow", tools: ["c"] },
    ]);
    expect([...listing(s, member, "s1", "tool", ["x", "w", "a", "c"])]).toEqual([["w", "allow"], ["a", "approve"], ["c", "allow"]]);
  });
});
