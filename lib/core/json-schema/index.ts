import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { RE2JS } from "re2js";

export interface FieldError {
  path: string;
  message: string;
}

/**
 * ajv's regex engine (`code.regExp`) for `pattern` and `patternProperties`: RE2 semantics, linear
 * in the text. A schema comes from a server or a member and runs on the console's main thread
 * (or the browser's): JavaScript's backtracking engine took minutes on `(a+)+$` against 30 a's
 * and a '!'. A pattern RE2 cannot run (look-around, back-references) is not checked here (it
 * matches everything); the rest of the schema still is, and the server validates again.
 */
export const linearRegExp = Object.assign(
  (pattern: string): { test(text: string): boolean; toString(): string } => {
    let re: RE2JS | null = null;
    try {
      re = RE2JS.compile(withRe2Escapes(pattern));
    } catch {
      // Not checked: see above.
    }
    // ajv keys its compiled patterns by toString().
    return { test: (text) => re === null || re.matcher(text).find(), toString: () => `/${pattern}/` };
  },
  { code: 'require("@/lib/core/json-schema").linearRegExp' },
);

/** `\uXXXX` and `\u{X…}` (ECMAScript) as RE2 writes them, `\x{X…}`; every other escape as it was. */
function withRe2Escapes(pattern: string): string {
  return pattern.replace(/\\(u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|[^])/g, (escape, _rest: string, braced?: string, four?: string) => (braced ?? four ? `\\x{${braced ?? four}}` : escape));
}

const options = { allErrors: true, strict: false, validateSchema: false, code: { regExp: linearRegExp } };
const draft7 = addFormats.default(new Ajv(options));
const draft2020 = addFormats.default(new Ajv2020(options));
const compiled = new WeakMap<object, ReturnType<Ajv["compile"]> | null>();

/**
 * Validates tool arguments against the tool's inputSchema. A schema that ajv cannot compile is
 * not our business to reject: the server validates again, so such arguments pass through.
 * A `null` given for an optional top-level parameter counts as "not provided" (SEP-2243 treats
 * the two alike, and clients send null for an unset field); it is still sent as typed.
 */
export function validateArguments(schema: unknown, args: unknown): FieldError[] {
  if (!schema || typeof schema !== "object") return [];
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const ajv = String((schema as { $schema?: unknown }).$schema ?? "").includes("2020-12") ? draft2020 : draft7;
    try {
      validate = ajv.compile(schema);
    } catch {
      validate = null;
    }
    compiled.set(schema, validate ?? null);
  }
  if (!validate || validate(withoutOptionalNulls(schema, args))) return [];
  return (validate.errors ?? []).map((e) => ({
    path: e.instancePath || (e.params && "missingProperty" in e.params ? `/${String(e.params.missingProperty)}` : "/"),
    message: e.message ?? "is invalid",
  }));
}

function withoutOptionalNulls(schema: object, args: unknown): unknown {
  if (!args || typeof args !== "object" || Array.isArray(args)) return args;
  const required = (schema as { required?: unknown }).required;
  const keep = new Set(Array.isArray(required) ? required : []);
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => v !== null || keep.has(k)));
}
