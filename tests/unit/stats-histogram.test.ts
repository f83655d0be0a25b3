import { describe, expect, it } from "vitest";
import { PERCENTILE_RELATIVE_ERROR, binOf, decodeBins, emptySummary, encodeBins, estimatePercentile, mergeSummary, type Summary } from "@/lib/domains/stats/histogram";
import { percentileCont } from "../support/seed-calls";
import { random } from "../support/random";

function summarise(values: number[]): Summary {
  const s = emptySummary();
  for (const v of values) {
    mergeSummary(s, { ...emptySummary(), count: 1, timed: 1, sum: v, min: v, max: v, bins: new Map([[binOf(v), 1]]) });
  }
  return s;
}

describe("stats histogram", () => {
  it("estimates percentile_cont within the documented relative error, merged in any split", () => {
    const rnd = random(3);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rnd() * 400);
      const spread = 10 ** (1 + rnd() * 6);
      const values = Array.from({ length: n }, () => (rnd() < 0.1 ? 0 : Math.round(0.001 * spread ** rnd() * 1000) / 1000));
      const cut = Math.floor(rnd() * n);
      const whole = mergeSummary(summarise(values.slice(0, cut)), summarise(values.slice(cut)));
      for (const p of [0, 0.5, 0.95, 0.99, 1]) {
        const exact = percentileCont(values, p)!;
        expect(Math.abs(estimatePercentile(whole, p)! - exact)).toBeLessThanOrEqual(PERCENTILE_RELATIVE_ERROR * exact + 1e-9);
      }
    }
  });

  it("is exact for the least and greatest value and empty without durations", () => {
    const s = summarise([3.25, 17, 1200.5]);
    expect(estimatePercentile(s, 0)).toBe(3.25);
    expect(estimatePercentile(s, 1)).toBe(1200.5);
    expect(estimatePercentile(emptySummary(), 0.5)).toBeNull();
  });

  it("puts a duration in the bin whose edges hold it, and stores bins as text that adds up", () => {
    for (const v of [0.001, 0.5, 1, 1.09, 7, 1000, 65_000, 3_600_000]) {
      const bin = binOf(v);
      expect(2 ** ((bin - 81) / 8)).toBeLessThanOrEqual(v * (1 + 1e-12));
      expect(2 ** ((bin - 80) / 8)).toBeGreaterThan(v);
    }
    expect(binOf(0)).toBe(0);
    expect(binOf(1e12)).toBe(320);
    const bins = new Map([[81, 2], [3, 1]]);
    expect(encodeBins(bins)).toBe("3:1,81:2");
    expect([...decodeBins("3:1,81:2", new Map([[81, 1]]))]).toEqual([[81, 3], [3, 1]]);
  });
});
