import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Figures } from "@/lib/domains/load-tests/figures";
import { Histogram, percentile, percentileOfSorted, rate, Series } from "@/lib/domains/load-tests/stats";

describe("load test figures", () => {
  it("nearest-rank percentiles of known values", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
    expect(percentileOfSorted([1, 2, 3, 4], 0)).toBe(1);
  });

  it("the histogram's percentiles are within 0.25 % of the exact ones, whatever the durations", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.01, max: 120_000, noNaN: true }), { minLength: 1, maxLength: 2000 }), fc.constantFrom(50, 95, 99), (values, p) => {
        const h = new Histogram();
        for (const v of values) h.add(v);
        const exact = percentile(values, p)!;
        expect(Math.abs(h.quantile(p)! - exact)).toBeLessThanOrEqual(exact * 0.0026 + 0.001);
      }),
    );
  });

  it("ignores what is no duration, and merges", () => {
    const a = new Histogram();
    a.add(Number.NaN);
    a.add(-1);
    expect(a.count).toBe(0);
    expect(a.quantile(50)).toBeNull();
    a.add(10);
    const b = new Histogram();
    b.add(30);
    b.add(20);
    a.merge(b);
    expect(a.count).toBe(3);
    expect(a.quantile(50)).toBeCloseTo(20, 1);
    expect(a.quantile(100)).toBe(30);
  });

  it("the series has one point per second, empty seconds included, each with its own percentiles", () => {
    const s = new Series();
    s.record(100, 5, false);
    s.record(900, 15, false);
    s.record(2500, 40, true);
    s.record(2600, null, true);
    s.close(1, 4);
    expect(s.points).toEqual([{ t: 0, calls: 2, errors: 0, p50: expect.closeTo(5, 1), p95: expect.closeTo(15, 1), users: 4 }]);
    s.close(3, 2);
    expect(s.points.slice(1)).toEqual([
      { t: 1, calls: 0, errors: 0, p50: null, p95: null, users: 2 },
      { t: 2, calls: 2, errors: 2, p50: expect.closeTo(40, 1), p95: expect.closeTo(40, 1), users: 2 },
    ]);
    // A call ending in a second already closed lands in the next open one.
    s.record(500, 1, false);
    s.close(4, 0);
    expect(s.points[3]).toMatchObject({ t: 3, calls: 1 });
  });

  it("counts calls, errors by kind and per-step percentiles", () => {
    const f = new Figures([
      { index: 0, label: "echo" },
      { index: 1, label: "add" },
    ]);
    for (let i = 1; i <= 100; i++) f.count(0, i * 9, i, null);
    f.count(1, 1500, 200, "tool_error");
    f.count(1, 1600, null, "policy");
    const w = f.snapshot({ elapsedMs: 2000, users: 3, sampleCallIds: ["c1"], lag: { p50: 1, p95: 2, p99: 3 }, final: true });
    expect(JSON.parse(w.lag!)).toEqual({ p50: 1, p95: 2, p99: 3 });
    expect(w.calls).toBe(102);
    expect(JSON.parse(w.errors)).toEqual({ tool_error: 1, policy: 1 });
    expect(w.callsPerSecond).toBe(51);
    const steps = JSON.parse(w.steps);
    expect(steps[0]).toMatchObject({ index: 0, label: "echo", calls: 100, errors: 0 });
    expect(steps[0].p95).toBeCloseTo(95, 0);
    expect(steps[1]).toMatchObject({ calls: 2, errors: 2, p50: 200 });
    expect(JSON.parse(w.series).map((p: { calls: number }) => p.calls)).toEqual([100, 2]);
    // While it runs, the current second is not shown yet.
    expect(JSON.parse(f.snapshot({ elapsedMs: 2100, users: 3, sampleCallIds: [], lag: null, final: false }).series)).toHaveLength(2);
    expect(rate(10, 0)).toBeNull();
  });
});
