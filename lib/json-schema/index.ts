import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";

export interface FieldError {
  path: string;
  message: string;
}

const draft7 = addFormats.default(new Ajv({ allErrors: true, strict: false, validateSchema: false }));
const draft2020 = addFormats.default(new Ajv2020({ allErrors: true, strict: false, validateSchema: false }));
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
