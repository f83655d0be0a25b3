import fs from "node:fs";
import { parseServerTiming, STAGES } from "../lib/core/timing";
import { percentile } from "./report";

/** CPU time (user + system) a process has used so far, in ms, from /proc (ticks of 1/100 s). */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The 1, 5 and 15 minute load averages, as "a, b, c". */
export function loadAverage(): string {
  return fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");
}

/**
 * The `Server-Timing` stages of every reply of a row (lib/core/timing: `route;dur=0.12, …,
 * total;dur=2.40`), kept per row while it runs: `at` names the row the next replies belong to.
 */
export class StageLog {
  private readonly rows = new Map<string, Record<string, number>[]>();
  private current = "";

  at(row: string): void {
    this.current = row;
  }

  /** One reply's header (absent: nothing kept, and the row says so). */
  add(header: string | null | undefined): void {
    if (!this.current || !header) return;
    const list = this.rows.get(this.current) ?? [];
    list.push(parseServerTiming(header));
    this.rows.set(this.current, list);
  }

  /** A `fetch` that keeps each reply's `Server-Timing` (for the SDK's transport, which does the HTTP itself). */
  fetch(): typeof fetch {
    return async (input, init) => {
      const res = await fetch(input, init);
      this.add(res.headers.get("server-timing"));
      return res;
    };
  }

  /** Median ms per stage of the rows named (by label prefix), a table; none answered the header: a line saying so. */
  lines(rows: string[]): string[] {
    const present = rows.filter((r) => this.rows.get(r)?.length);
    if (!present.length) return [`- Server-Timing: no reply of ${rows.join(", ")} carried the header.`];
    const names = [...STAGES, "total"].filter((s) => present.some((r) => this.rows.get(r)!.some((t) => s in t)));
    const other = [...new Set(present.flatMap((r) => this.rows.get(r)!.flatMap(Object.keys)))].filter((n) => !names.includes(n as never));
    const cols = [...names, ...other];
    return [
      `| Server-Timing median ms | replies | ${cols.join(" | ")} |`,
      `| --- | ---: | ${cols.map(() => "---:").join(" | ")} |`,
      ...present.map((r) => {
        const list = this.rows.get(r)!;
        const med = (s: string) => {
          const v = list.filter((t) => s in t).map((t) => t[s]!);
          return v.length ? percentile(v, 50).toFixed(2) : "–";
        };
        return `| ${r} | ${list.length} | ${cols.map(med).join(" | ")} |`;
      }),
    ];
  }
}
