export const STEP_METHODS = ["tools/call", "resources/read", "prompts/get", "tools/list", "resources/list", "resources/templates/list", "prompts/list"] as const;
export type StepMethod = (typeof STEP_METHODS)[number];

export type Assertion =
  | { kind: "status"; equals: "ok" | "error" | "isError" }
  | { kind: "json"; path: string; equals?: unknown; contains?: unknown; matches?: string }
  | { kind: "schema"; schema?: Record<string, unknown> }
  | { kind: "duration"; maxMs: number }
  | { kind: "snapshot"; ignore?: string[]; expected?: unknown } // expected = the kept result
  /** The step's server's definitions, listed at run time: no lint finding of `failOn` severity or worse (default "error"), at most `maxTokens`. */
  | { kind: "lint"; maxTokens?: number; failOn?: "error" | "warning" };
export const ASSERTION_KINDS = ["status", "json", "schema", "duration", "snapshot", "lint"] as const;

export interface Step {
  /** Stable within the collection; generated when absent. */
  id: string;
  /** Display name; default `${method} ${name ?? uri ?? ""}`. */
  label?: string;
  /** A server id or "{{alias}}". */
  serverId: string;
  method: StepMethod;
  /** Tool or prompt name. */
  name?: string;
  /** resources/read. */
  uri?: string;
  arguments?: Record<string, unknown>;
  assert?: Assertion[];
}

export interface CollectionDto {
  id: string;
  name: string;
  description: string | null;
  steps: Step[];
  variables: Record<string, unknown>;
  createdBy: { id: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
  lastRun: RunSummary | null;
}

/** `interrupted`: the console (its database, or the instance running it) stopped the run; it says nothing about the servers. */
export const RUN_STATUSES = ["running", "passed", "failed", "error", "interrupted"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** `interrupted`: the console stopped the step (its instance or its database), which says nothing about the server; `error` gives why. */
export type StepRunStatus = "pending" | "running" | "passed" | "failed" | "error" | "skipped" | "interrupted";
export const RUN_ORIGINS = ["console", "api", "cli", "monitor"] as const;
export type RunOrigin = (typeof RUN_ORIGINS)[number];
/** Runs nobody started by hand: left out of a collection's runs unless asked for (as automatic calls are from history). */
export const AUTOMATIC_RUN_ORIGINS: readonly RunOrigin[] = ["monitor"];
/** The origin of the calls a run's steps make: a monitor's are its own view in history. */
export function stepCallOrigin(origin: RunOrigin): "collection" | "monitor" {
  return origin === "monitor" ? "monitor" : "collection";
}

export interface SnapshotDiffEntry {
  path: string;
  expected?: unknown;
  actual?: unknown;
  change: "added" | "removed" | "changed";
}
export interface AssertionOutcome {
  kind: Assertion["kind"];
  passed: boolean;
  message: string;
  path?: string;
  diff?: SnapshotDiffEntry[];
}

export interface StepRunDto {
  index: number;
  stepId: string;
  label: string;
  callId: string | null;
  status: StepRunStatus;
  durationMs: number | null;
  error: string | null;
  assertions: AssertionOutcome[];
}

export interface RunDto {
  id: string;
  collectionId: string;
  collectionName: string;
  status: RunStatus;
  environment: string | null;
  origin: RunOrigin;
  stopOnFailure: boolean;
  startedAt: string;
  finishedAt: string | null;
  startedBy: { id: string; name: string } | null;
  passed: number;
  failed: number;
  total: number;
  steps: StepRunDto[];
}
export type RunSummary = Omit<RunDto, "steps">;

export interface EnvironmentDto {
  id: string;
  name: string;
  values: Record<string, unknown>;
  /** Names of the write-only secret values; their values are never returned. */
  secretNames: string[];
  /** Server aliases (or real server ids) → server id. */
  servers: Record<string, string>;
  updatedAt: string;
}

/** The export/import format; never carries secrets. */
export interface CollectionFile {
  switchboard: "collection";
  version: 1;
  name: string;
  description?: string | null;
  variables: Record<string, unknown>;
  steps: Step[];
}

/** The label a step shows when it has none of its own. */
export function stepLabel(step: Pick<Step, "label" | "method" | "name" | "uri">): string {
  return step.label || `${step.method} ${step.name ?? step.uri ?? ""}`.trim();
}

/**
 * Text for display with its `{{name}}` variables filled in from `values`; a placeholder without a
 * value (a secret, a step's result, an unknown name) stays as written.
 */
export function fillVariables(text: string, values: Record<string, unknown>): string {
  return text.replace(/\{\{([^{}]+)\}\}/g, (whole, expression: string) => {
    const name = expression.trim();
    if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
    const value = values[name];
    return typeof value === "string" ? value : value === undefined ? whole : JSON.stringify(value);
  });
}

export const collectionKeys = {
  all: () => ["collections"] as const,
  list: () => ["collections", "list"] as const,
  detail: (id: string) => ["collections", id] as const,
  runs: (id: string) => ["collections", id, "runs"] as const,
  run: (id: string) => ["collection-runs", id] as const,
  environments: () => ["collection-environments"] as const,
};
