import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PolicyRequest, PolicyRule } from "@/lib/domains/policies";

// decide() and listable() over a stored set: the database is this map (the queries module mocked).
const stored = new Map<string, { version: number; defaultEffect: string; rules: string; updatedAt: Date }>();
const reads = { sets: 0, versions: 0 };
vi.mock("@/lib/domains/policies/queries", () => ({
  findPolicySet: async ({ workspaceId }: { workspaceId: string }) => (reads.sets++, stored.get(workspaceId) ?? null),
  policyVersion: async ({ workspaceId }: { workspaceId: string }) => (reads.versions++, stored.get(workspaceId)?.version ?? 0),
}));

// The limiters count in the database (table rate_limit); here in memory, keyed the same way.
vi.mock("@/lib/domains/policies/limits", async () => {
  const { RateLimiterMemory } = await import("rate-limiter-flexible");
  const limiters = new Map<string, InstanceType<typeof RateLimiterMemory>>();
  return {
    ruleLimiter: ({ calls, perSeconds }: { calls: number; perSeconds: number }) => {
      const key = `${calls}/${perSeconds}`;
      if (!limiters.has(key)) limiters.set(key, new RateLimiterMemory({ points: calls, duration: perSeconds }));
      return limiters.get(key)!;
    },
  };
});

const { decide, decideWithoutCounting, listable, registerDefinitionGuard, registerGroupResolver } = await import("@/lib/domains/policies/decide");
const { forgetCache } = await import("@/lib/core/runtime");
const { CreateRuleSchema } = await import("@/lib/domains/policies/schemas");

let ws = 0;
const store = (rules: Partial<PolicyRule>[], defaultEffect = "allow") => {
  const workspaceId = `ws${++ws}`;
  stored.set(workspaceId, { version: 1, defaultEffect, rules: JSON.stringify(rules.map((r, i) => ({ id: `r${i}`, name: `rule ${i}`, enabled: true, effect: "allow", ...r }))), updatedAt: new Date() });
  return workspaceId;
};
const request = (workspaceId: string, name: string, args: unknown = {}): PolicyRequest => ({
  subject: { workspaceId, role: "member", userId: "u1", tokenId: null, clientId: null, groups: [] },
  serverId: "s1",
  kind: "tool",
  name,
  arguments: args,
});

describe("decide() and listable()", () => {
  beforeEach(() => registerDefinitionGuard(null));

  it("answers from the cache, re-reading the set only when its version moved", async () => {
    const w = store([{ effect: "deny", tools: ["x"] }]);
    expect((await decide(request(w, "x"))).effect).toBe("deny");
    const before = { ...reads };
    expect((await decide(request(w, "x"))).effect).toBe("deny");
    expect(reads).toEqual(before);
    stored.set(w, { ...stored.get(w)!, version: 2, rules: "[]" });
    await forgetCache("policyCache", { announce: false });
    expect((await decide(request(w, "x"))).effect).toBe("allow");
  });

  it("denies by the workspace default and lets a definition guard withhold first", async () => {
    const w = store([], "deny");
    expect(await decide(request(w, "x"))).toMatchObject({ effect: "deny", rule: null });
    const open = store([]);
    registerDefinitionGuard(async (_server, _kind, name) => (name === "changed" ? "Its definition changed; an admin must approve it" : null));
    expect(await decide(request(open, "changed"))).toEqual({ effect: "deny", rule: null, reason: "Its definition changed; an admin must approve it" });
    expect([...(await listable(request(open, "").subject, "s1", "tool", ["changed", "same"]))]).toEqual([["same", "allow"]]);
  });

  it("counts calls against a rule's rate limit per caller and says when to retry", async () => {
    const w = store([{ effect: "allow", tools: ["t"], rateLimit: { calls: 2, perSeconds: 60 } }]);
    expect((await decide(request(w, "t"))).effect).toBe("allow");
    expect((await decide(request(w, "t"))).effect).toBe("allow");
    const third = await decide(request(w, "t"));
    expect(third).toMatchObject({ effect: "deny", limited: true, rule: { id: "r0" } });
    expect(third.retryAfter).toBeGreaterThan(0);
    expect(third.retryAfter).toBeLessThanOrEqual(60);
    const other = request(w, "t");
    other.subject.userId = "u2";
    expect((await decide(other)).effect).toBe("allow");
  });

  it("lists with the approval mark, hiding only what is always denied", async () => {
    const w = store([{ effect: "deny", tools: ["secret"] }, { effect: "approve", tools: ["pay"] }], "allow");
    expect([...(await listable(request(w, "").subject, "s1", "tool", ["secret", "pay", "echo"]))]).toEqual([["pay", "approve"], ["echo", "allow"]]);
  });

  it("asks for a member's IdP groups only when a rule names groups and the caller gave none", async () => {
    const asked: string[] = [];
    registerGroupResolver(async (userId) => (asked.push(userId), userId === "u1" ? ["payments"] : []));
    try {
      const plain = store([{ effect: "deny", tools: ["add"], principals: { roles: ["viewer"] } }]);
      expect((await decide(request(plain, "add"))).effect).toBe("allow");
      expect(asked).toEqual([]);
      const w = store([{ effect: "deny", tools: ["add"], principals: { groups: ["payments"] } }]);
      const mine = request(w, "add");
      expect(await decide(mine)).toMatchObject({ effect: "deny", rule: { id: "r0" } });
      expect(mine.subject.groups).toEqual([]);
      expect((await decideWithoutCounting(mine)).effect).toBe("deny");
      expect([...(await listable(mine.subject, "s1", "tool", ["add", "hello"]))]).toEqual([["hello", "allow"]]);
      expect(asked).toEqual(["u1", "u1", "u1"]);
      const other = request(w, "add");
      other.subject.userId = "u2";
      expect((await decide(other)).effect).toBe("allow");
      // Groups the caller names are the ones decided on.
      const named = request(w, "add");
      named.subject.groups = ["support"];
      expect((await decide(named)).effect).toBe("allow");
      expect(asked).toEqual(["u1", "u1", "u1", "u2"]);
    } finally {
      registerGroupResolver(null);
    }
  });
});

describe("rule bodies", () => {
  const fields = (body: unknown) => {
    const r = CreateRuleSchema.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
  };

  it("accepts a full rule and refuses each bad field by name", () => {
    expect(fields({ name: "n", effect: "approve", servers: ["s"], tools: ["a*"], principals: { roles: ["viewer"], groups: ["g"] }, when: [{ path: "/a/0", op: "lt", value: 1.5 }, { path: "", op: "exists" }], approvers: { roles: ["member"] }, timeoutSeconds: 60, rateLimit: { calls: 1, perSeconds: 1 } })).toEqual([]);
    expect(fields({ name: "n", effect: "deny", when: [{ path: "/a", op: "matches", value: "a(?!b)" }] })).toEqual(["when.0.value"]);
    expect(fields({ name: "n", effect: "deny", when: [{ path: "/a", op: "gt", value: 0.00001 }] })).toEqual(["when.0.value"]);
    expect(fields({ name: "n", effect: "deny", when: [{ path: "/a", op: "equals" }] })).toEqual(["when.0.value"]);
    expect(fields({ name: "n", effect: "deny", when: [{ path: "a~", op: "exists" }] })).toEqual(["when.0.path"]);
    expect(fields({ name: "n", effect: "deny", tools: ["a**"] })).toEqual(["tools.0"]);
    expect(fields({ name: "n", effect: "deny", timeoutSeconds: 86_401 })).toEqual(["timeoutSeconds"]);
    expect(fields({ name: "n", effect: "deny", rateLimit: { calls: 1, perSeconds: 0 } })).toEqual(["rateLimit.perSeconds"]);
    expect(fields({ name: "n", effect: "deny", extra: 1 })).toEqual([""]);
  });
});
