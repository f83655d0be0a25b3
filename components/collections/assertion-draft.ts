import type { Assertion } from "@/lib/domains/collections";

export type JsonOp = "equals" | "contains" | "matches";

/** An assertion as its form holds it: every field as typed, turned into an Assertion on save. */
export interface AssertionDraft {
  kind: Assertion["kind"];
  equals: "ok" | "error" | "isError";
  path: string;
  op: JsonOp;
  value: string;
  schema: string;
  maxMs: string;
  ignore: string;
  /** A lint's token budget: empty for none. */
  maxTokens: string;
  failOn: "error" | "warning";
  expected?: unknown;
  /** Changed by the person since it was added or opened: only then does a problem show beside it. */
  touched?: boolean;
}

const BLANK: AssertionDraft = { kind: "status", equals: "ok", path: "", op: "equals", value: "", schema: "", maxMs: "1000", ignore: "", maxTokens: "", failOn: "error" };

export function newDraft(kind: Assertion["kind"]): AssertionDraft {
  return { ...BLANK, kind };
}

// A value is shown as JSON unless it is a plain string, so `3` stays a number and `hello` a string
// (a string that would read as JSON, such as "3", keeps its quotes).
const showValue = (value: unknown) => (typeof value === "string" && parseValue(value) === value ? value : JSON.stringify(value));

export function toDraft(a: Assertion): AssertionDraft {
  switch (a.kind) {
    case "status":
      return { ...BLANK, kind: "status", equals: a.equals };
    case "json": {
      const op: JsonOp = a.matches !== undefined ? "matches" : a.contains !== undefined ? "contains" : "equals";
      const value = op === "matches" ? (a.matches ?? "") : showValue(op === "contains" ? a.contains : a.equals);
      return { ...BLANK, kind: "json", path: a.path, op, value };
    }
    case "schema":
      return { ...BLANK, kind: "schema", schema: a.schema ? JSON.stringify(a.schema, null, 2) : "" };
    case "duration":
      return { ...BLANK, kind: "duration", maxMs: String(a.maxMs) };
    case "snapshot":
      return { ...BLANK, kind: "snapshot", ignore: (a.ignore ?? []).join("\n"), expected: a.expected };
    case "lint":
      return { ...BLANK, kind: "lint", maxTokens: a.maxTokens === undefined ? "" : String(a.maxTokens), failOn: a.failOn ?? "error" };
  }
}

/** The fields a value picked from a recorded result fills in: its pointer, and the value to equal. */
export function pickedValue(pointer: string, value: unknown): Partial<AssertionDraft> {
  return { path: pointer, op: "equals", value: showValue(value) };
}

/** Text typed as a value: JSON when it parses (numbers, true, objects, "quoted"), else the text itself. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The assertion a draft describes, or a problem to show beside it. */
export function fromDraft(d: AssertionDraft): { assertion: Assertion } | { problem: string } {
  switch (d.kind) {
    case "status":
      return { assertion: { kind: "status", equals: d.equals } };
    case "json": {
      if (!d.path.startsWith("/")) return { problem: "The path is a JSON pointer starting with /, e.g. /content/0/text" };
      if (d.op === "matches") {
        try {
          new RegExp(d.value);
        } catch {
          return { problem: `"${d.value}" is not a valid regular expression` };
        }
        return { assertion: { kind: "json", path: d.path, matches: d.value } };
      }
      return { assertion: { kind: "json", path: d.path, [d.op]: parseValue(d.value) } };
    }
    case "schema": {
      if (!d.schema.trim()) return { assertion: { kind: "schema" } };
      try {
        const schema = JSON.parse(d.schema) as unknown;
        if (!schema || typeof schema !== "object" || Array.isArray(schema)) return { problem: "The schema must be a JSON object" };
        return { assertion: { kind: "schema", schema: schema as Record<string, unknown> } };
      } catch {
        return { problem: "The schema is not valid JSON" };
      }
    }
    case "duration": {
      const maxMs = Number(d.maxMs);
      if (!Number.isInteger(maxMs) || maxMs <= 0) return { problem: "The budget is a whole number of milliseconds above 0" };
      return { assertion: { kind: "duration", maxMs } };
    }
    case "snapshot": {
      const ignore = d.ignore.split(/[\n,]/).map((p) => p.trim()).filter(Boolean);
      const bad = ignore.find((p) => !p.startsWith("/"));
      if (bad) return { problem: `Ignored paths are JSON pointers starting with /: ${bad}` };
      return { assertion: { kind: "snapshot", ...(ignore.length ? { ignore } : {}), ...(d.expected !== undefined ? { expected: d.expected } : {}) } };
    }
    case "lint": {
      const failOn = d.failOn === "warning" ? { failOn: d.failOn } : {};
      if (!d.maxTokens.trim()) return { assertion: { kind: "lint", ...failOn } };
      const maxTokens = Number(d.maxTokens);
      if (!Number.isInteger(maxTokens) || maxTokens < 0) return { problem: "The token budget is a whole number of tokens (or empty for none)" };
      return { assertion: { kind: "lint", maxTokens, ...failOn } };
    }
  }
}

export const KIND_LABEL: Record<Assertion["kind"], string> = {
  status: "Status",
  json: "Value at a path",
  schema: "Matches a JSON Schema",
  duration: "Duration",
  snapshot: "Snapshot",
  lint: "Lint and token budget",
};
