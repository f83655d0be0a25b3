import { describe, expect, it } from "vitest";
import { bucketFor, historyHref } from "@/lib/domains/stats";
import { StatsQuerySchema } from "@/lib/domains/stats/schemas";

const HOUR = 3_600_000;

describe("stats query", () => {
  it("derives the narrowest bucket that keeps a range within 120 points", () => {
    expect(bucketFor(HOUR)).toBe("1m");
    expect(bucketFor(2 * HOUR + 1)).toBe("5m");
    expect(bucketFor(24 * HOUR)).toBe("15m");
    expect(bucketFor(7 * 24 * HOUR)).toBe("3h");
    expect(bucketFor(30 * 24 * HOUR)).toBe("6h");
    expect(bucketFor(365 * 24 * HOUR)).toBe("1d");
  });

  it("defaults to the last 24 hours and refuses empty, reversed, huge and over-fine ranges", () => {
    const parsed = StatsQuerySchema.parse({});
    expect(parsed.to.getTime() - parsed.from.getTime()).toBe(24 * HOUR);
    expect(parsed.bucket).toBe("15m");
    const to = "2026-11-20T00:00:00Z";
    expect(StatsQuerySchema.parse({ to }).from.toISOString()).toBe("2026-11-19T00:00:00.000Z");
    expect(StatsQuerySchema.safeParse({ from: to, to }).success).toBe(false);
    expect(StatsQuerySchema.safeParse({ from: "2026-11-21T00:00:00Z", to }).success).toBe(false);
    expect(StatsQuerySchema.safeParse({ from: "2025-01-01T00:00:00Z", to }).success).toBe(false);
    expect(StatsQuerySchema.safeParse({ from: "2026-11-01T00:00:00Z", to, bucket: "1m" }).success).toBe(false);
    expect(StatsQuerySchema.safeParse({ from: "2026-11-19T12:00:00+02:00", to, bucket: "1m" }).success).toBe(true);
  });

  it("links to history with only the filters given", () => {
    expect(historyHref({ serverId: null, from: "a", to: "b", status: "error" })).toBe("/history?from=a&to=b&status=error&origin=any");
    expect(historyHref({ serverId: "s 1", from: "a", to: "b", name: "x&y" })).toBe("/history?serverId=s+1&from=a&to=b&name=x%26y&origin=any");
    expect(historyHref({ serverId: null, from: "a", to: "b", origin: "card" })).toBe("/history?from=a&to=b&origin=card");
  });
});
