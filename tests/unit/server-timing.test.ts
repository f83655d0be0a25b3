import { describe, expect, it } from "vitest";
import { parseServerTiming, startTiming, Timing, timingOf } from "@/lib/core/timing";

describe("Server-Timing", () => {
  it("parses stages with their durations, summing repeats and skipping entries without dur", () => {
    expect(parseServerTiming("route;dur=0.12, auth;dur=1.5, cache;desc=\"hit\", db;desc=\"x\";dur=3, db;dur=2, total;dur=7.25")).toEqual({ route: 0.12, auth: 1.5, db: 5, total: 7.25 });
    expect(parseServerTiming("app;dur=abc, ;dur=1")).toEqual({});
    expect(parseServerTiming(null)).toEqual({});
    expect(parseServerTiming("")).toEqual({});
  });

  it("writes the measured stages in order, each to 0.01 ms, then the total since arrival", () => {
    const timing = new Timing(performance.now() - 10);
    timing.add("upstream", 5);
    timing.add("route", 1.234);
    timing.add("journal", 0.5);
    timing.add("journal", 0.25);
    const header = timing.header();
    expect(header).toMatch(/^route;dur=1\.23, journal;dur=0\.75, upstream;dur=5\.00, total;dur=\d+\.\d\d$/);
    const parsed = parseServerTiming(header);
    expect(parsed.total).toBeGreaterThanOrEqual(10);
    expect(Object.keys(parsed)).toEqual(["route", "journal", "upstream", "total"]);
  });

  it("answers only the total when no stage was measured", () => {
    expect(new Timing(performance.now()).header()).toMatch(/^total;dur=\d+\.\d\d$/);
  });

  it("keeps one timing per request: started by the pipeline, or on first ask", () => {
    const request = {};
    const started = startTiming(request, 123);
    expect(timingOf(request)).toBe(started);
    expect(started.startedAt).toBe(123);
    const other = {};
    expect(timingOf(other)).toBe(timingOf(other));
  });
});
