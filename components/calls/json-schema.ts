import Ajv, { type ErrorObject } from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { linearRegExp } from "@/lib/core/json-schema";

interface SchemaCheck {
  valid: boolean;
  errors: { path: string; message: string }[];
  /** Set when the schema itself could not be compiled. */
  schemaError?: string;
}

const cache = new WeakMap<object, SchemaCheck | ((data: unknown) => SchemaCheck)>();

function makeAjv(draft: unknown) {
  // A server's patterns run in linear time here too (lib/core/json-schema), or one could freeze the tab.
  const options = { allErrors: true, strict: false, validateSchema: false, code: { regExp: linearRegExp } } as const;
  const ajv = typeof draft === "string" && draft.includes("2020-12") ? new Ajv2020(options) : typeof draft === "string" && draft.includes("2019-09") ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

function toErrors(errors: ErrorObject[] | null | undefined) {
  return (errors ?? []).map((e) => ({ path: e.instancePath || "/", message: e.message ?? e.keyword }));
}

/** Validates data against a JSON Schema in the browser (draft-07, 2019-09 or 2020-12 by `$schema`). */
export function checkSchema(schema: object, data: unknown): SchemaCheck {
  let entry = cache.get(schema);
  if (!entry) {
    try {
      const { $id, ...rest } = schema as Record<string, unknown>;
      void $id;
      const validate = makeAjv((schema as { $schema?: unknown }).$schema).compile(rest);
      entry = (d: unknown) => (validate(d) ? { valid: true, errors: [] } : { valid: false, errors: toErrors(validate.errors) });
    } catch (err) {
      entry = { valid: false, errors: [], schemaError: err instanceof Error ? err.message : String(err) };
    }
    cache.set(schema, entry);
  }
  return typeof entry === "function" ? entry(data) : entry;
}
