import { describe, expect, it } from "vitest";
import { coverOf, coversOf, GRAINS, seriesGrains } from "@/lib/domains/stats/cover";

const MINUTE = 60_000;
const DAY = 1440;
// 2026-11-10T00:00Z in minutes since the epoch: a UTC day's start.
const D0 = Date.UTC(2026, 10, 10) / MINUTE;
const range = (fromMinute: number, toMinute: number) => ({ from: new Date(fromMinute * MINUTE), to: new Date(toMinute * MINUTE) });

describe("stats cover", () => {
  it("covers whole periods inside the range and rolled up, never a period cut by `through`", () => {
    expect(coverOf(range(D0 + 30, D0 + 3 * DAY + 10), DAY, D0 + 5 * DAY)).toEqual({ grain: DAY, fromMinute: D0 + DAY, toMinute: D0 + 3 * DAY });
    // Rolled up to 10:00 of the third day: that day is not whole.
    expect(coverOf(range(D0, D0 + 5 * DAY), DAY, D0 + 2 * DAY + 600)).toEqual({ grain: DAY, fromMinute: D0, toMinute: D0 + 2 * DAY });
    // The range includes its end: one ending at a period's last millisecond holds that period.
    expect(coverOf({ from: new Date(D0 * MINUTE), to: new Date((D0 + 60) * MINUTE - 1) }, 60, D0 + DAY)).toEqual({ grain: 60, fromMinute: D0, toMinute: D0 + 60 });
    expect(coverOf(range(D0 + 1, D0 + 59), 60, D0 + DAY)).toBeNull();
    expect(coverOf(range(D0, D0 + DAY), 60, null)).toBeNull();
  });

  it("tiles a range with days, then 6 hours, hours and quarters at its ends, without gap or overlap", () => {
    const r = range(D0 + 7 * 60 + 20, D0 + 3 * DAY + 5 * 60 + 50);
    const { pieces, outer } = coversOf(r, seriesGrains(86_400), D0 + 10 * DAY);
    expect(pieces).toEqual([
      { grain: DAY, fromMinute: D0 + DAY, toMinute: D0 + 3 * DAY },
      { grain: 360, fromMinute: D0 + 12 * 60, toMinute: D0 + DAY },
      { grain: 60, fromMinute: D0 + 8 * 60, toMinute: D0 + 12 * 60 },
      { grain: 60, fromMinute: D0 + 3 * DAY, toMinute: D0 + 3 * DAY + 5 * 60 },
      { grain: 15, fromMinute: D0 + 7 * 60 + 30, toMinute: D0 + 8 * 60 },
      { grain: 15, fromMinute: D0 + 3 * DAY + 5 * 60, toMinute: D0 + 3 * DAY + 5 * 60 + 45 },
    ]);
    expect(outer).toEqual({ grain: 15, fromMinute: D0 + 7 * 60 + 30, toMinute: D0 + 3 * DAY + 5 * 60 + 45 });
    // Every minute of the outer cover is in exactly one piece.
    for (let m = outer!.fromMinute; m < outer!.toMinute; m += 5) expect(pieces.filter((p) => p.fromMinute <= m && m < p.toMinute)).toHaveLength(1);
  });

  it("stops at what is rolled up and leaves grains that do not divide the bucket out", () => {
    const { pieces, outer } = coversOf(range(D0 + 20, D0 + 5 * DAY), [GRAINS.day, GRAINS.hour], D0 + 2 * DAY + 180);
    expect(pieces).toEqual([
      { grain: DAY, fromMinute: D0 + DAY, toMinute: D0 + 2 * DAY },
      { grain: 60, fromMinute: D0 + 60, toMinute: D0 + DAY },
      { grain: 60, fromMinute: D0 + 2 * DAY, toMinute: D0 + 2 * DAY + 180 },
    ]);
    expect(outer).toEqual({ grain: 60, fromMinute: D0 + 60, toMinute: D0 + 2 * DAY + 180 });
    expect(seriesGrains(86_400)).toEqual([1440, 360, 60, 15]);
    expect(seriesGrains(21_600)).toEqual([360, 60, 15]);
    expect(seriesGrains(10_800)).toEqual([60, 15]);
    expect(seriesGrains(900)).toEqual([15]);
    expect(coversOf(range(D0, D0 + 60), seriesGrains(300), D0 + DAY)).toEqual({ pieces: [], outer: null });
  });
});
