import { describe, expect, it } from "vitest";
import { compareHeadline, inTimeOrder } from "@/components/calls/compare-story";

const call = (id: string, startedAt: string, args: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  id,
  serverId: "s1",
  serverName: "Demo",
  method: "tools/call" as const,
  name: "add",
  params: { name: "add", arguments: args },
  startedAt,
  ...over,
});

describe("compare story", () => {
  it("puts the earlier call first whichever order it was given in", () => {
    const older = call("old", "2026-11-27T10:00:00.000Z", {});
    const newer = call("new", "2026-11-27T11:00:00.000Z", {});
    expect(inTimeOrder(newer, older).map((c) => c.id)).toEqual(["old", "new"]);
    expect(inTimeOrder(older, newer).map((c) => c.id)).toEqual(["old", "new"]);
  });

  it("names the arguments that differ, with before and after", () => {
    const a = call("a", "2026-11-27T10:00:00.000Z", { a: 1, b: 1 });
    const b = call("b", "2026-11-27T11:00:00.000Z", { a: 1, b: 40 });
    expect(compareHeadline(a, b)).toBe("The same add, different arguments — b: 1 → 40.");
    expect(compareHeadline(a, call("c", "2026-11-27T11:00:00.000Z", { a: 1 }))).toBe("The same add, different arguments — b: 1 → (none).");
  });

  it("tells a repeat, a different tool and a different server apart", () => {
    const a = call("a", "2026-11-27T10:00:00.000Z", { b: 1 });
    expect(compareHeadline(a, call("b", "2026-11-27T11:00:00.000Z", { b: 1 }))).toBe("The same request, run twice.");
    expect(compareHeadline(a, call("b", "2026-11-27T11:00:00.000Z", { b: 1 }, { name: "echo" }))).toBe("Different requests: add and echo.");
    expect(compareHeadline(a, call("b", "2026-11-27T11:00:00.000Z", { b: 1 }, { serverId: "s2", serverName: "Other" }))).toBe("Different servers: Demo and Other.");
  });

  it("shortens long values and counts what it leaves out", () => {
    const a = call("a", "2026-11-27T10:00:00.000Z", { p: "x".repeat(50), q: 1, r: 1, s: 1 });
    const b = call("b", "2026-11-27T11:00:00.000Z", { p: "y", q: 2, r: 2, s: 2 });
    expect(compareHeadline(a, b)).toBe(`The same add, different arguments — p: "${"x".repeat(22)}… → "y", q: 1 → 2, r: 1 → 2 and 1 more.`);
  });
});
