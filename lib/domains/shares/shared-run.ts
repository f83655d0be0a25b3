import { REDACTED, redact, redactionMatcher, secretValues, type SecretValues } from "@/lib/core/redaction";
import type { AssertionOutcome, RunOrigin, RunStatus, StepRunStatus } from "@/lib/domains/collections";
import type { SharedRun } from "./index";

/** What the public view of a run is built from: the stored run and its steps. */
export interface RunSource {
  collectionName: string;
  status: string;
  environmentName: string | null;
  origin: string;
  stopOnFailure: boolean;
  startedAt: Date;
  finishedAt: Date | null;
  passed: number;
  failed: number;
  total: number;
  steps: { index: number; label: string; status: string; durationMs: number | null; error: string | null; assertions: string }[];
}

/** A step's recorded call as history keeps it (JSON text). */
export interface RecordedCall {
  params: string;
  result: string | null;
  error: string | null;
}

/**
 * The run as anyone with the link sees it: no ids (run, collection, steps, calls, servers), no
 * people. A run's strings are free text built from results (an assertion's "expected 3, got
 * <value>", a diff's values, an error), so field-name redaction alone cannot find what to hide:
 * the values that the redaction list masks in the steps' recorded calls, and the given secret
 * values (servers' stored secrets, the environment's secrets), are masked as text in every
 * string; an assertion or diff entry whose path names a listed field shows no value at all.
 */
export function toSharedRun(source: RunSource, keys: string[], { calls, secrets }: { calls: RecordedCall[]; secrets: SecretValues }): SharedRun {
  const matches = redactionMatcher(keys);
  const sensitive = (pointer: string | undefined) => !!pointer && pointerSegments(pointer).some(matches);
  const masked = mergeSecrets(secretValues(calls.flatMap((call) => valuesUnderListedFields(call, matches))), secrets);
  const run: SharedRun = {
    collectionName: source.collectionName,
    status: source.status as RunStatus,
    environment: source.environmentName,
    origin: source.origin as RunOrigin,
    stopOnFailure: source.stopOnFailure,
    startedAt: source.startedAt.toISOString(),
    finishedAt: source.finishedAt?.toISOString() ?? null,
    passed: source.passed,
    failed: source.failed,
    total: source.total,
    steps: source.steps.map((step) => ({
      index: step.index,
      label: step.label,
      status: step.status as StepRunStatus,
      durationMs: step.durationMs,
      error: step.error === null ? null : maskCutSecrets(withoutUserInfo(step.error), masked),
      assertions: parseOutcomes(step.assertions).map((outcome) => {
        const shown = hideListedPaths(outcome, sensitive);
        return typeof shown.message === "string" ? { ...shown, message: maskCutSecrets(shown.message, masked) } : shown;
      }),
    })),
  };
  return redact(run, keys, { secrets: masked }).value;
}

function hideListedPaths(outcome: AssertionOutcome, sensitive: (pointer: string | undefined) => boolean): AssertionOutcome {
  const out: AssertionOutcome = { ...outcome };
  if (sensitive(outcome.path)) out.message = `${outcome.path}: ${outcome.passed ? "as expected" : "not as expected"} (value ${REDACTED})`;
  if (outcome.diff) {
    out.diff = outcome.diff.map((entry) => {
      if (!sensitive(entry.path)) return entry;
      const hidden = { ...entry };
      if ("expected" in hidden) hidden.expected = REDACTED;
      if ("actual" in hidden) hidden.actual = REDACTED;
      return hidden;
    });
  }
  return out;
}

/**
 * Messages quote values cut short with "…" (lib/domains/collections assertions), which can cut a secret
 * in half where whole-value masking no longer finds it: a secret's beginning right before an
 * ellipsis is masked too.
 */
function maskCutSecrets(text: string, secrets: SecretValues): string {
  if (!text.includes("…") || !secrets.values.length) return text;
  return text
    .split("…")
    .map((part, i, parts) => {
      if (i === parts.length - 1) return part;
      for (const secret of secrets.values) {
        for (let k = secret.length - 1; k >= 3; k--) if (part.endsWith(secret.slice(0, k))) return part.slice(0, -k) + REDACTED;
      }
      return part;
    })
    .join("…");
}

function parseOutcomes(text: string): AssertionOutcome[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as AssertionOutcome[]) : [];
  } catch {
    return [];
  }
}

/** `/a/b~1c/0` → ["a", "b/c", "0"] (RFC 6901). */
function pointerSegments(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Every primitive value held under a listed field name in a call's params, result or error, also inside JSON text. */
function valuesUnderListedFields(call: RecordedCall, matches: (field: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (node: unknown, hidden: boolean, nesting: number): void => {
    if (typeof node === "string") {
      if (hidden && node !== REDACTED) found.push(node);
      const json = nesting < 3 ? jsonIn(node) : undefined;
      if (json !== undefined) walk(json, hidden, nesting + 1);
    } else if (typeof node === "number" || typeof node === "bigint") {
      if (hidden) found.push(String(node));
    } else if (Array.isArray(node)) {
      for (const item of node) walk(item, hidden, nesting);
    } else if (node && typeof node === "object") {
      for (const [key, child] of Object.entries(node)) walk(child, hidden || matches(key), nesting);
    }
  };
  for (const text of [call.params, call.result, call.error]) if (text) walk(jsonIn(text) ?? null, false, 0);
  return found;
}

function jsonIn(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed) || trimmed.length > 1024 * 1024) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function mergeSecrets(a: SecretValues, b: SecretValues): SecretValues {
  return { values: [...new Set([...a.values, ...b.values])].sort((x, y) => y.length - x.length) };
}

// A connection error's message may quote a server URL with its credentials.
function withoutUserInfo(message: string): string {
  return message.replace(/(https?:\/\/)[^\s/@]+@/gi, "$1");
}
