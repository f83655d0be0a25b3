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
  if (!validate || validate(args)) return [];
  return (validate.errors ?? []).map((e) => ({
    path: e.instancePath || (e.params && "missingProperty" in e.params ? `/${String(e.params.missingProperty)}` : "/"),
    message: e.message ?? "is invalid",
  }));
}
