import { filter as filterOf, parse, type Filter } from "scim2-parse-filter";
import { ScimError } from "./http";
import { SCIM_LIST_SCHEMA, SCIM_PATCH_SCHEMA } from "./index";
import type { ScimPatchInput } from "./schemas";

/** A list request's query (RFC 7644 §3.4.2). */
export interface ListParams {
  filter?: string;
  startIndex: number;
  count: number;
  excludedAttributes: string[];
}

const MAX_FILTER = 1000;
const MAX_COUNT = 1000;

export function listParams(url: URL): ListParams {
  const number = (name: string, fallback: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n)) throw new ScimError(400, `${name} must be an integer`, "invalidValue");
    return n;
  };
  const filter = url.searchParams.get("filter") ?? undefined;
  const excluded = (url.searchParams.get("excludedAttributes") ?? "").split(",").map((a) => a.trim().toLowerCase()).filter(Boolean);
  return { ...(filter ? { filter } : {}), startIndex: Math.max(1, number("startIndex", 1)), count: Math.min(MAX_COUNT, Math.max(0, number("count", 100))), excludedAttributes: excluded };
}

/** The parsed filter, and the attribute and value of a plain `attr eq "value"` (answered by the database). */
export function matching(text: string | undefined): { ast: Filter | null; eqOn?: { attr: string; value: string } } {
  if (text === undefined) return { ast: null };
  if (text.length > MAX_FILTER) throw new ScimError(400, `A filter is at most ${MAX_FILTER} characters`, "invalidFilter");
  let ast: Filter;
  try {
    ast = parse(text);
  } catch (err) {
    throw new ScimError(400, `The filter cannot be parsed: ${err instanceof Error ? err.message.slice(0, 200) : "invalid"}`, "invalidFilter");
  }
  if (ast.op === "eq" && "compValue" in ast && typeof ast.compValue === "string") return { ast, eqOn: { attr: ast.attrPath.toLowerCase(), value: ast.compValue } };
  return { ast };
}

/** The page of the resources the filter selects. */
export function paging(resources: Record<string, unknown>[], ast: Filter | null, params: ListParams) {
  const selected = ast ? resources.filter(filterOf(ast)) : resources;
  const page = selected.slice(params.startIndex - 1, params.startIndex - 1 + params.count);
  const shown = params.excludedAttributes.length ? page.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !params.excludedAttributes.includes(k.toLowerCase())))) : page;
  return { total: selected.length, startIndex: params.startIndex, items: shown };
}

export function listAnswer({ total, startIndex, items }: { total: number; startIndex: number; items: unknown[] }) {
  return { schemas: [SCIM_LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: items.length, Resources: items };
}

const STRING_BOOLEAN = /^(true|false)$/i;

/**
 * The operations as scim-patch takes them: ops lower-cased (Entra sends "Replace"), "True"/"False"
 * strings for `active` made booleans, and every path (or a value's keys) one of `allowed`.
 */
export function normalisedOps(patch: ScimPatchInput, allowed: Set<string>) {
  if (patch.schemas && !patch.schemas.includes(SCIM_PATCH_SCHEMA)) throw new ScimError(400, `A PATCH names the schema ${SCIM_PATCH_SCHEMA}`, "invalidSyntax");
  return patch.Operations.map((raw) => {
    const op = raw.op.toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove") throw new ScimError(400, `Unknown PATCH op ${raw.op.slice(0, 20)}`, "invalidSyntax");
    if (op === "remove" && !raw.path) throw new ScimError(400, "A remove op names a path", "noTarget");
    let value = raw.value;
    if (raw.path !== undefined) {
      assertAllowed(rootOf(raw.path), allowed);
      if (rootOf(raw.path) === "active" && typeof value === "string" && STRING_BOOLEAN.test(value)) value = value.toLowerCase() === "true";
    } else {
      if (!value || typeof value !== "object" || Array.isArray(value)) throw new ScimError(400, "An op without a path carries an object value", "invalidValue");
      const entries = Object.entries(value as Record<string, unknown>).map(([k, v]): [string, unknown] => {
        assertAllowed(rootOf(k), allowed);
        return [k, rootOf(k) === "active" && typeof v === "string" && STRING_BOOLEAN.test(v) ? v.toLowerCase() === "true" : v];
      });
      value = Object.fromEntries(entries);
    }
    return { op, ...(raw.path !== undefined ? { path: raw.path } : {}), ...(value !== undefined ? { value } : {}) };
  });
}

// "emails[type eq \"work\"].value" → "emails"; "urn:…:enterprise:2.0:User:department" → the extension's URN.
function rootOf(path: string): string {
  const lower = path.trim().toLowerCase();
  const urn = lower.match(/^(urn:[^[]*:2\.0:(user|group))(:|$)/);
  // The core schema's own URN may prefix a core attribute ("urn:…:core:2.0:User:userName").
  if (urn?.[1]!.includes(":core:2.0:")) return rootOf(lower.slice(urn[1]!.length + 1));
  if (urn) return urn[1]!;
  return lower.split(/[.[]/)[0]!;
}

function assertAllowed(root: string, allowed: Set<string>) {
  if (!allowed.has(root)) throw new ScimError(400, `Unknown attribute path ${root.slice(0, 100)}`, "invalidPath");
}

/** A scim-patch failure as a SCIM 400. */
export function patchError(err: unknown): ScimError {
  if (err instanceof ScimError) return err;
  const message = err instanceof Error ? err.message.slice(0, 300) : "The PATCH cannot be applied";
  return new ScimError(400, message, /target/i.test(message) ? "noTarget" : "invalidValue");
}
