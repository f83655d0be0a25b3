import { Cron } from "croner";
import type { MonitorSchedule } from "@/lib/watch/monitors";

/** "every 5 seconds", "every 2 hours", "every day": an interval in words. */
export function everyInWords(seconds: number): string {
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  const [size, unit] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, "second"];
  const n = seconds / size;
  return n === 1 ? `every ${unit}` : `every ${n.toLocaleString()} ${unit}s`;
}

/** A schedule in words: the interval, or the cron expression with its time zone. */
export function scheduleInWords(schedule: MonitorSchedule): string {
  return "everySeconds" in schedule ? everyInWords(schedule.everySeconds) : `cron "${schedule.cron}" in ${schedule.timeZone}`;
}

/** A time as it reads in `timeZone` (with the zone's name), for cron schedules. */
export function formatInZone(iso: string, timeZone: string): string {
  try {
    // dateStyle/timeStyle cannot be combined with timeZoneName: spelled out.
    return new Date(iso).toLocaleString(undefined, { timeZone, year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "short" });
  } catch {
    return new Date(iso).toLocaleString();
  }
}

/** The next `n` times a cron expression fires in a time zone, or the reason it is not valid (checked again by the API). */
export function cronPreview(cron: string, timeZone: string, n = 3): { next: Date[] } | { problem: string } {
  try {
    const job = new Cron(cron, { timezone: timeZone, paused: true });
    const next = job.nextRuns(n);
    job.stop();
    return next.length ? { next } : { problem: "This cron expression never fires." };
  } catch (err) {
    return { problem: err instanceof Error ? err.message : "Not a valid cron expression." };
  }
}

/** Every IANA time zone the browser knows, UTC first (Chromium's list leaves it out). */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}
