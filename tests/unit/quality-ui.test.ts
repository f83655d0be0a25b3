import { describe, expect, it } from "vitest";
import { changeSince, chronological, describeChange, formatPercent } from "@/components/quality/token-change";

const point = (snapshotId: string, day: number, total: number) => ({ snapshotId, takenAt: `2026-11-${String(day).padStart(2, "0")}T10:00:00.000Z`, total });
// Newest first, as a history API often answers: the helpers must not rely on the order.
const history = [point("c", 20, 1016), point("b", 10, 800), point("a", 1, 0)];

describe("the token history of a server", () => {
  it("reads oldest first whatever order it came in", () => {
    expect(chronological(history).map((p) => p.snapshotId)).toEqual(["a", "b", "c"]);
  });

  it("gives the change of the latest snapshot since the one before it, as a percentage", () => {
    const change = changeSince(history, null)!;
    expect(change.previous.snapshotId).toBe("b");
    expect(change.delta).toBe(216);
    expect(describeChange(change)).toBe("+27 % (+216 tokens)");
  });

  it("compares a chosen snapshot with its own predecessor; the first has none", () => {
    expect(changeSince(history, "a")).toBeNull();
    expect(changeSince(history, "unknown")).toBeNull();
    expect(changeSince([point("only", 1, 10)], null)).toBeNull();
    // From nothing there is no percentage, only tokens.
    expect(describeChange(changeSince(history, "b")!)).toBe("+800 tokens");
  });

  it.each([
    [27.4, "+27 %"],
    [-3.46, "-3.5 %"],
    [0.04, "±0 %"],
    [150, "+150 %"],
    [1234.5, "+1,235 %"],
  ])("%d percent reads %s", (percent, text) => {
    expect(formatPercent(percent)).toBe(text);
  });
});
