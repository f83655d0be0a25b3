// Isomorphic door of lib/domains/retention: what one retention run did in a workspace.

/** Rows one retention run deleted in a workspace (the details of its `retention.purged` audit event). */
export interface RetentionOutcome {
  retentionDays: number;
  /** Calls that started before this instant were purged (ISO). */
  cutoff: string;
  calls: number;
  sessions: number;
  logs: number;
  traffic: number;
  /** Collection runs (monitors' too), replays and load tests; and alerts (monitor ticks are kept a week whatever the retention: lib/watch/monitors). */
  runs: number;
  alerts: number;
}
