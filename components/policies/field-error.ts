import { isApiError } from "@/lib/core/api-client";

/** The editor's fields an API error can name; `when.<n>` is the n-th condition row. */
export type RuleField =
  | "name"
  | "effect"
  | "servers"
  | "tools"
  | "prompts"
  | "resources"
  | "roles"
  | "members"
  | "tokens"
  | "hosts"
  | "groups"
  | "approvers"
  | "timeoutSeconds"
  | "rateLimit"
  | `when.${number}`;

// Most specific first: "principals.roles" is the roles' field, "approvers.roles" the approvers'.
const FIELDS: [RegExp, RuleField][] = [
  [/approvers/i, "approvers"],
  [/timeout/i, "timeoutSeconds"],
  [/rateLimit|rate limit|perSeconds/i, "rateLimit"],
  [/principals\.roles|\broles?\b/i, "roles"],
  [/members?\b/i, "members"],
  [/tokens?\b/i, "tokens"],
  [/hosts?\b|client/i, "hosts"],
  [/groups?\b/i, "groups"],
  [/servers?\b/i, "servers"],
  [/tools?\b/i, "tools"],
  [/prompts?\b/i, "prompts"],
  [/resources?\b/i, "resources"],
  [/effect/i, "effect"],
  [/\bname\b/i, "name"],
];

/** The path an error names, as dotted text: the zod issue's path, `details.path`, `details.field`, or the message's "where: " prefix. */
function whereOf(message: string, details: unknown): string {
  const d = (details ?? {}) as { issues?: { path?: (string | number)[] }[]; path?: (string | number)[] | string; field?: string };
  const path = d.issues?.[0]?.path ?? d.path;
  if (Array.isArray(path) && path.length) return path.join(".");
  if (typeof path === "string" && path) return path;
  if (d.field) return d.field;
  return /^([\w.[\]/]+):/.exec(message)?.[1] ?? message;
}

/** Which field of the rule editor an API error is about, so the editor can show it there. */
export function fieldOfError(error: unknown): { field: RuleField | null; message: string; part?: "path" | "value" } | null {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  if (!isApiError(error) || (error.code !== "bad_request" && error.code !== "unprocessable")) return { field: null, message };
  const where = whereOf(message, error.details).replace(/\[(\d+)\]/g, ".$1");
  const row = /\bwhen\.(\d+)/.exec(where);
  if (row) return { field: `when.${Number(row[1])}`, message, part: /\bwhen\.\d+\.path\b|pointer/i.test(`${where} ${message}`) ? "path" : "value" };
  if (/\bwhen\b/.test(where)) return { field: "when.0", message, part: "value" };
  const field = FIELDS.find(([pattern]) => pattern.test(where))?.[1] ?? null;
  return { field, message };
}
