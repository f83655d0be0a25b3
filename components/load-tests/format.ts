import { errorCount, type LoadTestSummary } from "@/lib/domains/load-tests";

/** A latency figure in ms, to one decimal below 100 ms; "–" when there is none. */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value).toLocaleString("en-US")} ms`;
}

/** Errors as a count and a share of the calls. */
export function errorsText(test: Pick<LoadTestSummary, "calls" | "errors">): string {
  const n = errorCount(test.errors);
  if (!n) return "0";
  return `${n.toLocaleString("en-US")} (${((100 * n) / Math.max(1, test.calls)).toFixed(1)} %)`;
}

/** What a test ran: "16 users · 30 s" or "4 users · 1,000 calls". */
export function shape(test: Pick<LoadTestSummary, "config">): string {
  const { users, durationSeconds, count } = test.config;
  return `${users} user${users === 1 ? "" : "s"} · ${count !== undefined ? `${count.toLocaleString("en-US")} calls` : `${durationSeconds} s`}`;
}
