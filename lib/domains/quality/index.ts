/** The severities of lint findings: an error fails `switchboard lint`, the others only report. */
export type LintSeverity = "error" | "warning" | "info";

/** A rule's finding on one item of a snapshot: `tool:<name>`, `prompt:<name>` or `resource:<uri>`. */
export interface LintFinding {
  rule: string;
  severity: LintSeverity;
  item: string;
  message: string;
}

/** The token cost of one definition as a host sends it to a model. */
export interface TokenItem {
  kind: "tool" | "prompt" | "resource";
  /** The tool's or prompt's name, the resource's URI. */
  name: string;
  tokens: number;
}

/** `GET /api/v1/servers/:id/lint`: a snapshot's findings and token cost, with the total at every snapshot. */
export interface LintReport {
  snapshotId: string | null;
  takenAt: string | null;
  findings: LintFinding[];
  tokens: { total: number; tokenizer: string; items: TokenItem[] };
  /** The token total of each of the server's snapshots, newest first (at most 50). */
  history: { snapshotId: string; takenAt: string; total: number }[];
}

/** The lists a capability snapshot holds, each item as the server listed it. */
export interface DefinitionSet {
  tools: Record<string, unknown>[];
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  templates: Record<string, unknown>[];
}

/** Every lint rule, its severity and what it checks (the API, the Quality tab and docs/testing-servers.md show them). */
export const LINT_RULES = [
  { id: "description-missing", severity: "warning", description: "A tool, prompt, resource or resource template has no description." },
  { id: "description-short", severity: "warning", description: "A description shorter than 20 characters: too little for a model to choose the item." },
  { id: "parameter-description", severity: "warning", description: "A tool parameter (a property of inputSchema) or a prompt argument has no description." },
  { id: "parameter-type", severity: "warning", description: "A tool parameter has no type (no type, enum, const, $ref or combinator)." },
  { id: "schema-dialect", severity: "error", description: "A $schema naming a dialect other than JSON Schema 2020-12, the one the MCP specification names." },
  { id: "schema-ref", severity: "warning", description: "A schema uses $ref: many hosts do not resolve references." },
  { id: "schema-keyword", severity: "warning", description: "Keywords common hosts refuse: oneOf, anyOf, allOf or not at the root of inputSchema; patternProperties; if/then/else." },
  { id: "input-schema-type", severity: "error", description: "The root of inputSchema is not of type \"object\"." },
  { id: "output-schema-type", severity: "error", description: "An outputSchema whose root is not of type \"object\" (structuredContent is an object)." },
  { id: "name-format", severity: "error", description: "A tool name outside the specification's rule: 1 to 128 characters of A-Z, a-z, 0-9, _, - and ." },
  { id: "name-duplicate", severity: "error", description: "Two tools or prompts with one name, or two resources with one URI." },
  { id: "name-case", severity: "warning", description: "Two tool or prompt names that differ only by case." },
  { id: "read-only-hint", severity: "info", description: "A tool named like a reader (get_, list_, read_, search_, fetch_…) without annotations.readOnlyHint." },
] as const satisfies readonly { id: string; severity: LintSeverity; description: string }[];

export type LintRuleId = (typeof LINT_RULES)[number]["id"];
