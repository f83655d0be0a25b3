import type { ErrorSchema, RJSFSchema } from "@rjsf/utils";

/**
 * The tool's inputSchema as @rjsf/core can use it: ajv there speaks draft-07, so the draft
 * marker and `$id` (which ajv would cache across tools) are dropped; a missing schema is `{}`.
 */
export function toFormSchema(inputSchema: unknown): RJSFSchema {
  if (!inputSchema || typeof inputSchema !== "object" || Array.isArray(inputSchema)) return { type: "object", properties: {} };
  const { $schema, $id, ...rest } = inputSchema as Record<string, unknown>;
  void $schema;
  void $id;
  return nameUnionOptions({ type: "object", ...rest }, 0) as RJSFSchema;
}

/** Gives untitled anyOf/oneOf options a title from their type ("number", "null"), not "Option 2". */
function nameUnionOptions(node: unknown, depth: number): unknown {
  if (depth > 32 || !node || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((n) => nameUnionOptions(n, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
      out[key] = value.map((option) => {
        const named = nameUnionOptions(option, depth + 1);
        if (!named || typeof named !== "object" || Array.isArray(named) || "title" in named) return named;
        const o = named as Record<string, unknown>;
        const title = "const" in o ? JSON.stringify(o.const) : Array.isArray(o.type) ? o.type.join(" | ") : typeof o.type === "string" ? o.type : undefined;
        return title ? { ...o, title } : o;
      });
    } else {
      out[key] = nameUnionOptions(value, depth + 1);
    }
  }
  return out;
}

/** Whether the schema has any field to fill. */
export function hasFields(schema: RJSFSchema): boolean {
  const props = schema.properties;
  return Boolean(
    (props && Object.keys(props).length > 0) || schema.additionalProperties || schema.patternProperties || schema.anyOf || schema.oneOf || schema.allOf || schema.$ref,
  );
}

/** Turns `[{ path: "/a/0/b" or "a.0.b", message }]` into rjsf's nested error schema. */
export function errorSchemaFromPaths(errors: { path?: string; message: string }[]): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const { path = "", message } of errors) {
    const parts = path.split(/[/.]/).filter(Boolean);
    let node = root;
    for (const part of parts) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    const list = (node.__errors as string[] | undefined) ?? [];
    list.push(message);
    node.__errors = list;
  }
  return root as ErrorSchema;
}

/** Parses the raw-JSON arguments; they must be an object. */
export function parseArgs(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    return { ok: false, error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, error: "Arguments must be a JSON object" };
  return { ok: true, value: value as Record<string, unknown> };
}

/** A 422 answer's `details.errors`, if it has them. */
export function detailErrors(details: unknown): { path?: string; message: string }[] {
  const errors = (details as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is { path?: unknown; message: unknown } => Boolean(e) && typeof e === "object")
    .map((e) => ({ path: typeof e.path === "string" ? e.path : Array.isArray(e.path) ? e.path.join("/") : undefined, message: String(e.message) }));
}
