export const LOAD_TEST_STATUSES = ["running", "completed", "cancelled", "interrupted", "failed"] as const;
export type LoadTestStatus = (typeof LOAD_TEST_STATUSES)[number];

/** The longest a load test runs (a count-based one too): ten minutes. */
export const MAX_DURATION_SECONDS = 600;
/** The most calls a count-based load test makes. */
export const MAX_COUNT = 100_000;
/** The most calls of a test recorded in history as its sample. */
export const MAX_SAMPLE = 20;

/** What a load test runs: a collection's steps, or one tool call, by N virtual users. */
export interface LoadTestConfig {
  collectionId?: string;
  call?: { serverId: string; tool: string; arguments: Record<string, unknown> };
  users: number;
  durationSeconds?: number;
  count?: number;
  rampUpSeconds: number;
  thinkMs: number;
}

/** One step's figures (a one-call test has one step). Durations in ms. */
/**
 * The load generator's own delay: how late the console's event loop ran while the test ran. Each
 * call's time includes it, so a p95 lag near a step's p95 means the console (or its machine), not
 * the server, was the bottleneck.
 */
export interface LoadTestLag {
  p50: number;
  p95: number;
  p99: number;
}

export interface LoadTestStep {
  index: number;
  label: string;
  calls: number;
  errors: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** One second of the test: calls that ended in it, their errors and percentiles, users running. */
export interface LoadTestPoint {
  t: number;
  calls: number;
  errors: number;
  p50: number | null;
  p95: number | null;
  users: number;
}

export interface LoadTestDto {
  id: string;
  label: string;
  status: LoadTestStatus;
  config: LoadTestConfig;
  collectionId: string | null;
  serverId: string | null;
  calls: number;
  /** Errors by kind (classifyFailure's kinds, `tool_error` for a result with isError, `policy` for a refused call). */
  errors: Record<string, number>;
  callsPerSecond: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  steps: LoadTestStep[];
  series: LoadTestPoint[];
  sampleCallIds: string[];
  /** How late the console's own event loop ran during the test, in ms: part of every figure (null: not measured). */
  lag: LoadTestLag | null;
  error: string | null;
  startedBy: { id: string; name: string } | null;
  startedAt: string;
  finishedAt: string | null;
}

export type LoadTestSummary = Omit<LoadTestDto, "series" | "steps" | "sampleCallIds" | "lag">;

/** The errors of all kinds. */
export function errorCount(errors: Record<string, number>): number {
  return Object.values(errors).reduce((a, b) => a + b, 0);
}

export const loadTestKeys = {
  all: () => ["load-tests"] as const,
  list: () => ["load-tests", "list"] as const,
  detail: (id: string) => ["load-tests", id] as const,
};
