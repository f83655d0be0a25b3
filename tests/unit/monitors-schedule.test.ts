import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cronProblem, nextDue } from "@/lib/watch/monitors/schedule";
import { CreateMonitorSchema } from "@/lib/watch/monitors/schemas";

describe("nextDue", () => {
  it("is the next multiple of the interval since the epoch, after both the due time and now", () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 7 * 24 * 3600 }), fc.integer({ min: 0, max: 2 ** 41 }), fc.integer({ min: -1e7, max: 1e7 }), (every, due, drift) => {
        const now = new Date(due + drift);
        const next = nextDue({ everySeconds: every }, new Date(due), now).getTime();
        expect(next % (every * 1000)).toBe(0);
        expect(next).toBeGreaterThan(Math.max(due, now.getTime()));
        expect(next - Math.max(due, now.getTime())).toBeLessThanOrEqual(every * 1000);
      }),
    );
  });

  it("skips the ticks missed while nothing ran: one next due time, after now", () => {
    const due = new Date("2026-11-27T10:00:00Z");
    expect(nextDue({ everySeconds: 5 }, due, new Date("2026-11-27T10:03:02Z")).toISOString()).toBe("2026-11-27T10:03:05.000Z");
  });

  it("reads a cron pattern in its time zone, daylight saving included", () => {
    const after = new Date("2026-03-28T12:00:00Z");
    // Paris moves to summer time on 29 March 2026: 09:00 is 08:00Z before, 07:00Z after.
    expect(nextDue({ cron: "0 9 * * *", timeZone: "Europe/Paris" }, after, after).toISOString()).toBe("2026-03-29T07:00:00.000Z");
    expect(nextDue({ cron: "0 9 * * *", timeZone: "Europe/Paris" }, new Date("2026-03-27T12:00:00Z"), new Date("2026-03-27T12:00:00Z")).toISOString()).toBe("2026-03-28T08:00:00.000Z");
    expect(nextDue({ cron: "*/15 * * * *", timeZone: "UTC" }, new Date("2026-11-27T10:07:00Z"), new Date("2026-11-27T10:07:00Z")).toISOString()).toBe("2026-11-27T10:15:00.000Z");
  });

  it("runs a cron stored before the floor was checked at most every 5 s", () => {
    const due = new Date("2026-11-27T10:00:00Z");
    expect(nextDue({ cron: "* * * * * *", timeZone: "UTC" }, due, due).toISOString()).toBe("2026-11-27T10:00:05.000Z");
    expect(nextDue({ cron: "*/5 * * * * *", timeZone: "UTC" }, due, due).toISOString()).toBe("2026-11-27T10:00:05.000Z");
    expect(nextDue({ cron: "0,30 * * * * *", timeZone: "UTC" }, due, due).toISOString()).toBe("2026-11-27T10:00:30.000Z");
  });
});

describe("schedules as the API takes them", () => {
  it("names the field croner refuses", () => {
    expect(cronProblem("*/5 * * * *", "Europe/Paris")).toBeNull();
    expect(cronProblem("every minute", "UTC")?.field).toBe("cron");
    expect(cronProblem("61 * * * *", "UTC")?.field).toBe("cron");
    expect(cronProblem("* * * * *", "Mars/Olympus")?.field).toBe("timeZone");
  });

  it("refuses a cron whose runs come closer than the 5 s floor of everySeconds", () => {
    for (const cron of ["* * * * * *", "*/2 * * * * *", "*/4 * * * * *", "0,1 * * * * *", "*/7 * * * * *", "58,0 * * * * *", "0,3 0 9 * * *", "* * * * * * *"]) {
      expect(cronProblem(cron, "UTC"), cron).toEqual({ field: "cron", message: expect.stringMatching(/at most every 5 seconds/) });
    }
    for (const cron of ["*/5 * * * * *", "0 * * * * *", "*/10 * * * * *", "* * * * *", "0 9 * * 1-5", "0 0 0 29 2 *"]) expect(cronProblem(cron, "Europe/Paris"), cron).toBeNull();
  });

  it("takes {everySeconds} or {cron, timeZone}, never both, at most every 5 s", () => {
    const parse = (schedule: unknown) => CreateMonitorSchema.safeParse({ collectionId: "c", schedule });
    expect(parse({ everySeconds: 5 }).data?.schedule).toEqual({ everySeconds: 5 });
    expect(parse({ cron: "* * * * *" }).data?.schedule).toEqual({ cron: "* * * * *", timeZone: "UTC" });
    expect(parse({ everySeconds: 4 }).error?.issues[0]?.path).toEqual(["schedule", "everySeconds"]);
    expect(parse({ everySeconds: 5.5 }).success).toBe(false);
    expect(parse({ everySeconds: 7 * 24 * 3600 + 1 }).success).toBe(false);
    expect(parse({ everySeconds: 5, cron: "* * * * *" }).success).toBe(false);
    expect(parse({}).success).toBe(false);
    expect(parse({ everySeconds: 60, timeZone: "UTC" }).success).toBe(false);
  });
});
