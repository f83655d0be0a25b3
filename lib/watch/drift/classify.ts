import { CAPABILITY_KINDS, type CapabilityChange, type CapabilityKind, type SnapshotData } from "./index";

type Json = Record<string, unknown>;
interface Finding {
  breaking: boolean;
  detail: string;
}

const LIST: Record<CapabilityKind, keyof SnapshotData> = { tool: "tools", prompt: "prompts", resource: "resources", template: "templates" };
const KEY: Record<CapabilityKind, string> = { tool: "name", prompt: "name", resource: "uri", template: "uriTemplate" };
const LABEL: Record<CapabilityKind, string> = { tool: "tool", prompt: "prompt", resource: "resource", template: "resource template" };

/** JSON with every object's keys sorted, so equal definitions have one spelling (and one hash). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** The name (tools, prompts), URI (resources) or URI template an item is known by. */
export function itemKey(kind: CapabilityKind, item: Json): string {
  return String(item[KEY[kind]] ?? "");
}

/** Each list sorted by its items' keys: the order a snapshot stores. */
export function sortedData(data: SnapshotData): SnapshotData {
  const sort = (kind: CapabilityKind) => [...data[LIST[kind]]].sort((a, b) => (itemKey(kind, a) < itemKey(kind, b) ? -1 : itemKey(kind, a) > itemKey(kind, b) ? 1 : 0));
  return { tools: sort("tool"), prompts: sort("prompt"), resources: sort("resource"), templates: sort("template") };
}

/**
 * Every change from `before` to `after`, classified. Breaking: a tool, prompt, resource or template
 * removed, a required argument added (or an optional one made required), a type narrowed, an enum
 * value removed. Everything else (additions, optional arguments, descriptions, widening) is not.
 */
export function diffSnapshots(before: SnapshotData, after: SnapshotData): CapabilityChange[] {
  const changes: CapabilityChange[] = [];
  for (const kind of CAPABILITY_KINDS) {
    const was = byKey(kind, before[LIST[kind]]);
    const now = byKey(kind, after[LIST[kind]]);
    for (const name of [...new Set([...was.keys(), ...now.keys()])].sort()) {
      const old = was.get(name);
      const item = now.get(name);
      if (!item) changes.push({ kind, name, change: "removed", breaking: true, detail: `${LABEL[kind]} removed` });
      else if (!old) changes.push({ kind, name, change: "added", breaking: false, detail: `${LABEL[kind]} added` });
      else if (canonicalJson(old) !== canonicalJson(item)) {
        for (const f of changedItem(kind, old, item)) changes.push({ kind, name, change: "changed", ...f });
      }
    }
  }
  return changes;
}

function byKey(kind: CapabilityKind, items: Json[]): Map<string, Json> {
  return new Map(items.map((item) => [itemKey(kind, item), item]));
}

function changedItem(kind: CapabilityKind, old: Json, now: Json): Finding[] {
  const out: Finding[] = [];
  for (const field of ["title", "description", ...(kind === "resource" || kind === "template" ? ["name", "mimeType"] : [])]) {
    if (canonicalJson(old[field]) !== canonicalJson(now[field])) out.push({ breaking: false, detail: `${field === "mimeType" ? "MIME type" : field} changed` });
  }
  if (kind === "tool") compareSchema(asObject(old.inputSchema), asObject(now.inputSchema), "", out);
  if (kind === "prompt") comparePromptArguments(old, now, out);
  if (out.length === 0) out.push({ breaking: false, detail: "definition changed" });
  return out;
}

function comparePromptArguments(old: Json, now: Json, out: Finding[]): void {
  const args = (p: Json) => new Map((Array.isArray(p.arguments) ? (p.arguments as Json[]) : []).map((a) => [String(a.name), a]));
  const was = args(old);
  const is = args(now);
  for (const name of [...new Set([...was.keys(), ...is.keys()])].sort()) {
    const a = was.get(name);
    const b = is.get(name);
    if (!a) out.push(b!.required === true ? { breaking: true, detail: `required argument "${name}" added` } : { breaking: false, detail: `optional argument "${name}" added` });
    else if (!b) out.push({ breaking: false, detail: `argument "${name}" removed` });
    else {
      if (a.required !== true && b.required === true) out.push({ breaking: true, detail: `argument "${name}" is now required` });
      if (a.required === true && b.required !== true) out.push({ breaking: false, detail: `argument "${name}" is now optional` });
      if (canonicalJson(a.description) !== canonicalJson(b.description)) out.push({ breaking: false, detail: `description of argument "${name}" changed` });
    }
  }
}

function asObject(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

/** The JSON types a schema admits, or null for any. */
function types(schema: Json): string[] | null {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return [...new Set(t.map(String))].sort();
  return null;
}

function admits(set: string[] | null, type: string): boolean {
  return set === null || set.includes(type) || (type === "integer" && set.includes("number"));
}

const show = (set: string[] | null) => (set === null ? "any" : set.join(" | "));
const where = (at: string) => (at ? `"${at}"` : "the input");

function compareSchema(old: Json, now: Json, at: string, out: Finding[]): void {
  const was = types(old);
  const is = types(now);
  if (canonicalJson(was) !== canonicalJson(is)) {
    const narrowed = was === null ? is !== null : was.some((t) => !admits(is, t));
    const widened = is === null ? was !== null : is.some((t) => !admits(was, t));
    const how = narrowed && widened ? "changed" : narrowed ? "narrowed" : "widened";
    out.push({ breaking: narrowed, detail: `type of ${where(at)} ${how} from ${show(was)} to ${show(is)}` });
  }
  compareEnum(old, now, at, out);
  if (at && canonicalJson(old.description) !== canonicalJson(now.description)) out.push({ breaking: false, detail: `description of "${at}" changed` });

  const props = (s: Json) => asObject(s.properties);
  const required = (s: Json) => new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const [op, np, or, nr] = [props(old), props(now), required(old), required(now)];
  for (const name of [...new Set([...Object.keys(op), ...Object.keys(np), ...or, ...nr])].sort()) {
    const path = at ? `${at}.${name}` : name;
    const before = name in op;
    const after = name in np;
    if (!before && after && !or.has(name)) {
      out.push(nr.has(name) ? { breaking: true, detail: `required argument "${path}" added` } : { breaking: false, detail: `optional argument "${path}" added` });
      continue;
    }
    if (before && !after && !nr.has(name)) {
      out.push({ breaking: false, detail: `argument "${path}" removed` });
      continue;
    }
    if (!or.has(name) && nr.has(name)) out.push({ breaking: true, detail: `argument "${path}" is now required` });
    if (or.has(name) && !nr.has(name)) out.push({ breaking: false, detail: `argument "${path}" is now optional` });
    if (before && after) compareSchema(asObject(op[name]), asObject(np[name]), path, out);
  }
  if (old.items !== undefined || now.items !== undefined) compareSchema(asObject(old.items), asObject(now.items), `${at}[]`, out);
}

function compareEnum(old: Json, now: Json, at: string, out: Finding[]): void {
  const was = Array.isArray(old.enum) ? old.enum.map(canonicalJson) : null;
  const is = Array.isArray(now.enum) ? now.enum.map(canonicalJson) : null;
  if (was && is) {
    for (const v of was.filter((v) => !is.includes(v))) out.push({ breaking: true, detail: `enum value ${v} of ${where(at)} removed` });
    for (const v of is.filter((v) => !was.includes(v))) out.push({ breaking: false, detail: `enum value ${v} of ${where(at)} added` });
  } else if (is) out.push({ breaking: true, detail: `${where(at)} restricted to the values ${is.join(", ")}` });
  else if (was) out.push({ breaking: false, detail: `${where(at)} no longer restricted to a list of values` });
}
