import { SwitchboardError } from "@/lib/core/errors";

/**
 * What `{{…}}` placeholders resolve against when a step is about to run: the merged variables
 * (run-time over environment over collection), the results of the steps already run (in order)
 * and the environment's server map (alias or real server id → server id).
 */
export type VariableScope = {
  variables: Record<string, unknown>;
  steps: { id: string; result: unknown }[];
  servers: Record<string, string>;
};

// Trimmed after matching: `\s*` around a lazy group backtracked cubically on a member's (or an
// imported file's) text, "{{" and 4,000 spaces held the console for 25 s.
const WHOLE = /^\{\{([^{}]+)\}\}$/;
const ANY = /\{\{([^{}]+)\}\}/g;
/** The expression of a string that is exactly one `{{…}}` placeholder, trimmed; null otherwise. */
const wholePlaceholder = (value: string): string | null => WHOLE.exec(value)?.[1]!.trim() ?? null;
const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** RFC 6901: the reference token for one key (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The JSON pointer for a list of keys and indexes (`[]` → `""`, the whole document). */
export function toPointer(tokens: (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join("");
}

/** The keys a JSON pointer names, unescaped, or null when it is not a pointer (`""` → `[]`). */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Looks up an RFC 6901 JSON pointer in a document; `found` is false when any part is missing. */
export function jsonPointer(doc: unknown, pointer: string): { found: boolean; value?: unknown } {
  const tokens = parsePointer(pointer);
  if (!tokens) return { found: false };
  let current: unknown = doc;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (current !== null && typeof current === "object" && hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: current };
}

function unprocessable(message: string, variable: string): SwitchboardError {
  return new SwitchboardError("unprocessable", message, { variable });
}

/** The value of one placeholder body (`name` or `steps.<ref>#<pointer>`). */
function lookup(expression: string, scope: VariableScope): unknown {
  if (expression.startsWith("steps.")) {
    const hash = expression.indexOf("#");
    const ref = expression.slice("steps.".length, hash === -1 ? undefined : hash);
    const pointer = hash === -1 ? "" : expression.slice(hash + 1);
    const byPosition = /^[1-9]\d*$/.test(ref);
    const step = byPosition ? scope.steps[Number(ref) - 1] : scope.steps.find((s) => s.id === ref);
    if (!step) {
      const which = byPosition ? `step ${ref}` : `step "${ref}"`;
      throw unprocessable(`{{${expression}}}: ${which} has not run before this one (a step can use only the results of earlier steps)`, expression);
    }
    if (parsePointer(pointer) === null) throw unprocessable(`{{${expression}}}: "${pointer}" is not a JSON pointer (it starts with "/")`, expression);
    const found = jsonPointer(step.result, pointer);
    if (!found.found) throw unprocessable(`{{${expression}}}: the result of step ${byPosition ? ref : `"${ref}"`} has nothing at ${pointer}`, expression);
    return found.value;
  }
  if (!hasOwn(scope.variables, expression)) throw unprocessable(`{{${expression}}}: no variable "${expression}" in the run, the environment or the collection`, expression);
  return scope.variables[expression];
}

const asText = (value: unknown) => (typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value));

/**
 * Replaces `{{…}}` placeholders deep inside a value (strings, arrays, object values). A string
 * that is exactly one placeholder takes the variable's value with its JSON type; inside a longer
 * string the value is written as text (JSON for objects). Throws `unprocessable` naming the
 * variable, step or pointer that resolves to nothing.
 */
export function interpolate(value: unknown, scope: VariableScope): unknown {
  if (typeof value === "string") {
    const whole = wholePlaceholder(value);
    if (whole !== null) return lookup(whole, scope);
    return value.includes("{{") ? value.replace(ANY, (_, expression: string) => asText(lookup(expression.trim(), scope))) : value;
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, scope));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, scope)]));
  }
  return value;
}

/**
 * The server a step runs on: `{{alias}}` names an entry of the environment's server map (or a
 * variable holding a server id); after interpolation, an id the map has as a key is replaced by
 * the mapped id, so steps made from history can be pointed elsewhere by an environment.
 */
export function resolveServerId(serverId: string, scope: VariableScope): string {
  const whole = wholePlaceholder(serverId);
  if (whole && hasOwn(scope.servers, whole)) return scope.servers[whole]!;
  if (whole && !whole.startsWith("steps.") && !hasOwn(scope.variables, whole)) {
    throw unprocessable(`${serverId}: no server alias "${whole}" in the environment, and no variable of that name`, whole);
  }
  const id = interpolate(serverId, scope);
  if (typeof id !== "string" || !id) throw unprocessable(`${serverId}: resolves to ${JSON.stringify(id)}, not a server id`, serverId);
  return hasOwn(scope.servers, id) ? scope.servers[id]! : id;
}
