import type { DefinitionFinding as Finding, SnapshotData } from "./index";
import { exfiltrationHints, instructionPhrases, read, urlHosts, visible } from "./scan-text";

/**
 * The definition scan (docs/governance.md, "Pinned definitions"): on every snapshot, what a
 * reviewer should look at. It marks, it never blocks: pinning withholds changed items whatever it finds.
 */
export const SCAN_RULES = ["invisible-unicode", "bidi-unicode", "model-instruction", "url", "exfiltration", "shadowed-name"] as const;
export type ScanRule = (typeof SCAN_RULES)[number];

/** `item`: `tool:<name>`, `prompt:<name>` or `resource:<uri>` (a template: `resource:<uri template>`). */
export interface DefinitionFinding extends Finding {
  rule: ScanRule;
}

/** Another server's tools in the same workspace, for the shadowing check. */
export interface OtherServerTools {
  server: string;
  tools: string[];
}

type Json = Record<string, unknown>;
interface Text {
  where: string;
  text: string;
  /** Names are checked for hidden characters only; prose for everything. */
  prose: boolean;
}

const MAX_SCHEMA_NODES = 2000;

/** Every finding of a snapshot, in item order. */
export function scanDefinitions(data: SnapshotData, others: OtherServerTools[] = []): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  const shadows = shadowIndex(others);
  const items: [string, Json, "tool" | "prompt" | "resource" | "template"][] = [
    ...data.tools.map((t) => [`tool:${String(t.name ?? "")}`, t, "tool"] as [string, Json, "tool"]),
    ...data.prompts.map((p) => [`prompt:${String(p.name ?? "")}`, p, "prompt"] as [string, Json, "prompt"]),
    ...data.resources.map((r) => [`resource:${String(r.uri ?? "")}`, r, "resource"] as [string, Json, "resource"]),
    ...data.templates.map((r) => [`resource:${String(r.uriTemplate ?? "")}`, r, "template"] as [string, Json, "template"]),
  ];
  for (const [item, def, kind] of items) {
    for (const text of texts(kind, def)) findings.push(...scanText(item, text));
    if (kind === "tool") {
      const name = String(def.name ?? "");
      const other = shadows.get(nameKey(name));
      if (other) {
        const exact = other.tools.includes(name);
        findings.push({ item, rule: "shadowed-name", message: `Tool "${visible(name)}" ${exact ? "has the same name as" : "is named like"} a tool of server "${visible(other.server)}"${exact ? "" : ` ("${visible(other.tools.find((t) => nameKey(t) === nameKey(name)) ?? "")}")`}: a model may call the wrong one` });
      }
    }
  }
  return dedupe(findings);
}

function scanText(item: string, { where, text, prose }: Text): DefinitionFinding[] {
  const out: DefinitionFinding[] = [];
  const r = read(text);
  const hiddenCount = r.invisible + r.tags;
  if (hiddenCount) {
    const decoded = r.hidden ? `; the tag characters spell "${visible(r.hidden.slice(0, 200))}"` : "";
    out.push({ item, rule: "invisible-unicode", message: `The ${where} holds ${hiddenCount} invisible character${hiddenCount === 1 ? "" : "s"} (${r.named.filter((n) => !isBidi(n)).join(", ")})${decoded}` });
  }
  if (r.bidi) out.push({ item, rule: "bidi-unicode", message: `The ${where} holds ${r.bidi} bidirectional control character${r.bidi === 1 ? "" : "s"} (${r.named.filter(isBidi).join(", ")}): what is shown may differ from what the model reads` });
  if (!prose && !r.hidden) return out;
  // Instructions are looked for in the text as read without its hidden characters, and in what tag characters spell.
  const plain = r.hidden ? `${r.plain} ${r.hidden.toLowerCase()}` : r.plain;
  const phrases = instructionPhrases(plain);
  if (phrases.length) out.push({ item, rule: "model-instruction", message: `The ${where} speaks to the model: ${phrases.map((p) => `"${p}"`).join(", ")}` });
  if (!prose) return out;
  const hosts = urlHosts(plain);
  if (hosts.length) out.push({ item, rule: "url", message: `The ${where} holds a URL (${hosts.map((h) => visible(h)).join(", ")})` });
  const hints = exfiltrationHints(plain, text);
  if (hints.length) out.push({ item, rule: "exfiltration", message: `The ${where} hints at sending data out: ${hints.join("; ")}` });
  return out;
}

const BIDI_NAMES = new Set(["U+202A", "U+202B", "U+202C", "U+202D", "U+202E", "U+2066", "U+2067", "U+2068", "U+2069", "U+200E", "U+200F", "U+061C"]);
const isBidi = (name: string) => BIDI_NAMES.has(name);

/** The texts of an item a model reads: its names, title and description, its arguments', its schemas'. */
function texts(kind: "tool" | "prompt" | "resource" | "template", def: Json): Text[] {
  const out: Text[] = [];
  const str = (where: string, value: unknown, prose = true) => typeof value === "string" && value && out.push({ where, text: value, prose });
  str("name", def.name, false);
  str("title", def.title);
  str("description", def.description);
  if (kind === "resource" || kind === "template") str("URI", def.uri ?? def.uriTemplate, false);
  if (kind === "tool") {
    const annotations = def.annotations as Json | undefined;
    if (annotations && typeof annotations === "object") str("annotations' title", annotations.title);
    schemaTexts("input schema", def.inputSchema, out);
    schemaTexts("output schema", def.outputSchema, out);
  }
  if (kind === "prompt" && Array.isArray(def.arguments)) {
    for (const arg of def.arguments as Json[]) {
      if (!arg || typeof arg !== "object") continue;
      str(`argument "${visible(String(arg.name ?? ""))}" name`, arg.name, false);
      str(`argument "${visible(String(arg.name ?? ""))}" description`, arg.description);
    }
  }
  return out;
}

/** Descriptions, titles and property names anywhere in a schema (a bounded walk: a schema can be deep). */
function schemaTexts(label: string, schema: unknown, out: Text[]): void {
  const stack: [string, unknown][] = [["", schema]];
  for (let seen = 0; stack.length && seen < MAX_SCHEMA_NODES; seen++) {
    const [at, node] = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      node.forEach((n) => stack.push([at, n]));
      continue;
    }
    const where = `${label}${at ? ` at "${visible(at)}"` : ""}`;
    for (const [key, value] of Object.entries(node as Json)) {
      if ((key === "description" || key === "title") && typeof value === "string") out.push({ where: `${key} in the ${where}`, text: value, prose: true });
      else if (key === "properties" && value && typeof value === "object") {
        for (const [prop, sub] of Object.entries(value as Json)) {
          const path = at ? `${at}.${prop}` : prop;
          out.push({ where: `property name "${visible(path)}" in the ${label}`, text: prop, prose: false });
          stack.push([path, sub]);
        }
      } else if (typeof value === "object") stack.push([at, value]);
    }
  }
}

/** Names compared as a model may confuse them: case, hidden characters and - _ . ignored. */
function nameKey(name: string): string {
  return read(name).plain.replaceAll("-", "_").replaceAll(".", "_").replaceAll(" ", "_");
}

function shadowIndex(others: OtherServerTools[]): Map<string, OtherServerTools> {
  const index = new Map<string, OtherServerTools>();
  for (const other of others) for (const tool of other.tools) if (!index.has(nameKey(tool))) index.set(nameKey(tool), other);
  return index;
}

function dedupe(findings: DefinitionFinding[]): DefinitionFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.item}\u0000${f.rule}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
