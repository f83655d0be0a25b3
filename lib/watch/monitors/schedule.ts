import { Cron } from "croner";
import { MIN_EVERY_SECONDS, type MonitorSchedule } from "./index";

const FLOOR_MS = MIN_EVERY_SECONDS * 1000;
// Enough consecutive runs to span two whole minutes of a pattern that fires every second.
const RUNS_CHECKED = 130;

/**
 * Why a cron schedule is refused, or null: croner parses the pattern and resolves the time zone,
 * and no two of its next runs may be closer than the `everySeconds` floor.
 */
export function cronProblem(cron: string, timeZone: string): { field: "cron" | "timeZone"; message: string } | null {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
  } catch {
    return { field: "timeZone", message: `"${timeZone}" is not an IANA time zone (e.g. "Europe/Paris", "UTC")` };
  }
  try {
    const job = new Cron(cron, { timezone: timeZone, paused: true });
    let previous = job.nextRun();
    if (!previous) return { field: "cron", message: "The cron pattern never fires" };
    for (let i = 0; i < RUNS_CHECKED; i++) {
      const next = job.nextRun(previous);
      if (!next) break;
      const gap = next.getTime() - previous.getTime();
      if (gap < FLOOR_MS) return { field: "cron", message: `A monitor runs at most every ${MIN_EVERY_SECONDS} seconds; this pattern fires ${gap / 1000} s apart` };
      previous = next;
    }
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
  // A cron stored before the floor was checked still runs at most once per floor.
  const start = Math.max(after.getTime() + FLOOR_MS - 1, now.getTime());
  const next = new Cron(schedule.cron, { timezone: schedule.timeZone, paused: true }).nextRun(new Date(start));
  // A pattern that stops firing (a past year) leaves the monitor without a next run.
  return next ?? new Date(8.64e15);
}
