import { Cron } from "croner";
import type { MonitorSchedule } from "./index";

/** Why a cron schedule is refused, or null: croner parses the pattern and resolves the time zone. */
export function cronProblem(cron: string, timeZone: string): { field: "cron" | "timeZone"; message: string } | null {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
  } catch {
    return { field: "timeZone", message: `"${timeZone}" is not an IANA time zone (e.g. "Europe/Paris", "UTC")` };
  }
  try {
    const job = new Cron(cron, { timezone: timeZone, paused: true });
    if (!job.nextRun()) return { field: "cron", message: "The cron pattern never fires" };
  } catch (err) {
    return { field: "cron", message: err instanceof Error ? err.message : String(err) };
  }
  return null;
}

/**
 * The first due time strictly after `after` and after `now`. Intervals are aligned on multiples of
 * their length since the epoch, so every instance computes the same due times; ticks missed while no
 * instance ran are not replayed.
 */
export function nextDue(schedule: MonitorSchedule, after: Date, now = new Date()): Date {
  const from = Math.max(after.getTime(), now.getTime());
  if ("everySeconds" in schedule) {
    const step = schedule.everySeconds * 1000;
    return new Date((Math.floor(from / step) + 1) * step);
  }
  const next = new Cron(schedule.cron, { timezone: schedule.timeZone, paused: true }).nextRun(new Date(from));
  // A pattern that stops firing (a past year) leaves the monitor without a next run.
  return next ?? new Date(8.64e15);
}
