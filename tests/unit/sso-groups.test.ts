import { describe, expect, it } from "vitest";
import { GROUP_CHARS, groupsFromClaims, MAX_GROUPS } from "@/lib/identity/sso/group-claims";

describe("groupsFromClaims", () => {
  it("reads an array of strings, or a single string, from the named claim", () => {
    expect(groupsFromClaims({ groups: ["payments", "support"] }, "groups")).toEqual(["payments", "support"]);
    expect(groupsFromClaims({ groups: "payments" }, "groups")).toEqual(["payments"]);
    expect(groupsFromClaims({ groups: ["a"], "https://acme.example/roles": ["ops"] }, "https://acme.example/roles")).toEqual(["ops"]);
  });

  it("ignores what is not a string, empty or too long, and repeats", () => {
    expect(groupsFromClaims({ groups: ["ok", 7, null, { name: "x" }, ["nested"], "", "x".repeat(GROUP_CHARS + 1), "x".repeat(GROUP_CHARS), "ok"] }, "groups")).toEqual(["ok", "x".repeat(GROUP_CHARS)]);
    expect(groupsFromClaims({ groups: 42 }, "groups")).toEqual([]);
    expect(groupsFromClaims({ groups: { payments: true } }, "groups")).toEqual([]);
  });

  it("gives none when the claim is missing, or only inherited", () => {
    expect(groupsFromClaims({ roles: ["admin"] }, "groups")).toEqual([]);
    expect(groupsFromClaims({}, "toString")).toEqual([]);
    expect(groupsFromClaims({}, "__proto__")).toEqual([]);
  });

  it("keeps at most MAX_GROUPS", () => {
    const many = Array.from({ length: MAX_GROUPS + 50 }, (_, i) => `g${i}`);
    const kept = groupsFromClaims({ groups: many }, "groups");
    expect(kept).toHaveLength(MAX_GROUPS);
    expect(kept).toEqual(many.slice(0, MAX_GROUPS));
  });
});
