// Which parts of a dashboard range are read from rollup rows of which grain (pure: unit-tested).

/** Rollup periods in minutes: a day and 6 hours (both built from their hours), an hour, a quarter hour (totals only). */
export const GRAINS = { day: 1440, sixHours: 360, hour: 60, quarter: 15 } as const;

/**
 * Periods of `grain` minutes read from rollup rows, [fromMinute, toMinute). The rest of a range is
 * read from the call table: its ragged ends, hours not rolled up yet (the current one), and calls
 * that were pending when their hour was rolled up.
 */
export interface Cover {
  grain: number;
  fromMinute: number;
  toMinute: number;
}

/**
 * The periods of `grain` minutes wholly inside [from, to] (the range includes its end) and rolled
 * up (ending at or before `through`), or null when none is.
 */
export function coverOf(range: { from: Date; to: Date }, grain: number, through: number | null): Cover | null {
  if (through === null) return null;
  const ms = grain * 60_000;
  const fromMinute = Math.ceil(range.from.getTime() / ms) * grain;
  const toMinute = Math.min(Math.floor(through / grain) * grain, Math.floor((range.to.getTime() + 1) / ms) * grain);
  return fromMinute < toMinute ? { grain, fromMinute, toMinute } : null;
}

/**
 * The range tiled with the coarsest rollup rows that fit: whole days, then 6-hour periods at
 * either end of them, then hours, then quarter hours (each grain given must divide the one
 * before). `pieces` do not overlap; together they are `outer`, the finest grain's cover, outside
 * which calls are read live. So a month's groups read about 40 rows per key instead of 720.
 */
export function coversOf(range: { from: Date; to: Date }, grains: readonly number[], through: number | null): { pieces: Cover[]; outer: Cover | null } {
  const pieces: Cover[] = [];
  let inner: Cover | null = null;
  for (const grain of grains) {
    const cover = coverOf(range, grain, through);
    if (!cover) continue;
    // A finer grain's cover holds a coarser one's: only what it adds at either end is new.
    if (!inner) pieces.push(cover);
    else {
      if (cover.fromMinute < inner.fromMinute) pieces.push({ grain, fromMinute: cover.fromMinute, toMinute: inner.fromMinute });
      if (inner.toMinute < cover.toMinute) pieces.push({ grain, fromMinute: inner.toMinute, toMinute: cover.toMinute });
    }
    inner = cover;
  }
  return { pieces, outer: inner };
}

/** The grains whose rollup rows tile a series of `width`-second buckets: those that divide it. */
export function seriesGrains(width: number): number[] {
  return [GRAINS.day, GRAINS.sixHours, GRAINS.hour, GRAINS.quarter].filter((grain) => width % (grain * 60) === 0);
}
