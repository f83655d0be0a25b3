import { LINT_RULES, type DefinitionSet, type LintFinding, type LintRuleId } from "./index";

type Json = Record<string, unknown>;

const SEVERITY = Object.fromEntries(LINT_RULES.map((r) => [r.id, r.severity])) as Record<LintRuleId, LintFinding["severity"]>;
const MIN_DESCRIPTION = 20;
/** The MCP specification's tool names (2025-11-25, "Tool names"). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** The dialect the specification names for schemas without `$schema`; `$schema` naming another is refused by strict hosts. */
const DIALECT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const ROOT_COMBINATORS = ["oneOf", "anyOf", "allOf", "not"];
const TYPED = ["type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf"];
/** Keywords whose values are maps of named schemas (a property may be called "if"), and keywords holding data, not schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const VALUES = new Set(["const", "enum", "default", "examples"]);
const READER = /^(?:get|list|read|search|fetch|Get|List|Read|Search|Fetch)(?:[_.\-A-Z]|$)/;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * Lints a snapshot's definitions: descriptions, parameters, schemas hosts refuse, names and
 * annotations (the rules of LINT_RULES). Findings follow the order tools, prompts, resources.
 */
export function lintDefinitions(data: DefinitionSet): LintFinding[] {
  const out: LintFinding[] = [];
  const add = (rule: LintRuleId, item: string, message: string) => out.push({ rule, severity: SEVERITY[rule], item, message });

  for (const tool of data.tools) {
    const name = text(tool.name);
    const item = `tool:${name}`;
    describeItem(add, item, `tool "${name}"`, tool.description);
    if (!TOOL_NAME.test(name)) add("name-format", item, `tool name "${name}" breaks the specification's rule: 1–128 characters of A-Z a-z 0-9 _ - .`);
    lintInputSchema(add, item, tool.inputSchema);
    if (tool.outputSchema !== undefined) lintOutputSchema(add, item, tool.outputSchema);
    const annotations = isObject(tool.annotations) ? tool.annotations : {};
    if (READER.test(name) && annotations.readOnlyHint === undefined) add("read-only-hint", item, `tool "${name}" looks like a reader but has no annotations.readOnlyHint`);
  }
  for (const prompt of data.prompts) {
    const name = text(prompt.name);
    const item = `prompt:${name}`;
    describeItem(add, item, `prompt "${name}"`, prompt.description);
    for (const arg of Array.isArray(prompt.arguments) ? prompt.arguments : []) {
      if (isObject(arg) && !text(arg.description).trim()) add("parameter-description", item, `prompt "${name}": argument "${text(arg.name)}" has no description`);
    }
  }
  for (const resource of data.resources) describeItem(add, `resource:${text(resource.uri)}`, `resource "${text(resource.uri)}"`, resource.description);
  for (const template of data.templates) describeItem(add, `resource:${text(template.uriTemplate)}`, `resource template "${text(template.uriTemplate)}"`, template.description);

  collisions(add, "tool", data.tools.map((t) => text(t.name)));
  collisions(add, "prompt", data.prompts.map((p) => text(p.name)));
  collisions(add, "resource", data.resources.map((r) => text(r.uri)), false);
  return out;
}

type Add = (rule: LintRuleId, item: string, message: string) => void;

function describeItem(add: Add, item: string, label: string, description: unknown) {
  const d = text(description).trim();
  if (!d) add("description-missing", item, `${label} has no description`);
  else if (d.length < MIN_DESCRIPTION) add("description-short", item, `${label}: description "${d}" is shorter than ${MIN_DESCRIPTION} characters`);
}

function lintInputSchema(add: Add, item: string, schema: unknown) {
  if (!isObject(schema) || schema.type !== "object") {
    add("input-schema-type", item, `inputSchema's root type is ${isObject(schema) ? JSON.stringify(schema.type ?? null) : "missing"}, not "object"`);
  }
  if (!isObject(schema)) return;
  for (const key of ROOT_COMBINATORS) if (key in schema) add("schema-keyword", item, `inputSchema has "${key}" at its root, which common hosts refuse`);
  lintSchemaTree(add, item, "inputSchema", schema);
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [param, def] of Object.entries(properties)) {
    if (!isObject(def)) continue;
    if (!text(def.description).trim()) add("parameter-description", item, `parameter "${param}" has no description`);
    if (!TYPED.some((k) => k in def)) add("parameter-type", item, `parameter "${param}" has no type`);
  }
}

function lintOutputSchema(add: Add, item: string, schema: unknown) {
  if (!isObject(schema) || schema.type !== "object") {
    add("output-schema-type", item, `outputSchema's root type is ${isObject(schema) ? JSON.stringify(schema.type ?? null) : "not a schema"}, not "object"`);
  }
  if (isObject(schema)) lintSchemaTree(add, item, "outputSchema", schema);
}

/** `$schema`, `$ref`, `patternProperties` and `if/then/else` anywhere in a schema: one finding per kind and schema. */
function lintSchemaTree(add: Add, item: string, label: string, schema: Json) {
  const dialect = schema.$schema;
  if (dialect !== undefined && !(typeof dialect === "string" && DIALECT_2020_12.test(dialect))) {
    add("schema-dialect", item, `${label} declares $schema ${JSON.stringify(dialect)}; MCP names JSON Schema 2020-12 (https://json-schema.org/draft/2020-12/schema)`);
  }
  const found = new Set<string>();
  const walk = (node: unknown, depth: number): void => {
    if (depth > 64 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth + 1));
    for (const key of ["$ref", "patternProperties", "if"]) if (key in node) found.add(key);
    for (const [key, value] of Object.entries(node)) {
      if (VALUES.has(key)) continue;
      if (SCHEMA_MAPS.has(key) && isObject(value)) Object.values(value).forEach((v) => walk(v, depth + 1));
      else walk(value, depth + 1);
    }
  };
  walk(schema, 0);
  if (found.has("$ref")) add("schema-ref", item, `${label} uses $ref, which many hosts do not resolve`);
  if (found.has("patternProperties")) add("schema-keyword", item, `${label} uses patternProperties, which common hosts refuse`);
  if (found.has("if")) add("schema-keyword", item, `${label} uses if/then/else, which common hosts refuse`);
}

function collisions(add: Add, kind: "tool" | "prompt" | "resource", names: string[], byCase = true) {
  const label = kind === "resource" ? "URI" : "name";
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  for (const [name, count] of seen) if (count > 1) add("name-duplicate", `${kind}:${name}`, `${count} ${kind}s share the ${label} "${name}"`);
  if (!byCase) return;
  const folded = new Map<string, string[]>();
  for (const name of seen.keys()) folded.set(name.toLowerCase(), [...(folded.get(name.toLowerCase()) ?? []), name]);
  for (const group of folded.values()) {
    if (group.length > 1) add("name-case", `${kind}:${group[0]}`, `${kind} names differ only by case: ${group.map((n) => `"${n}"`).join(", ")}`);
  }
}
