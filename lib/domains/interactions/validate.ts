/**
 * Checks accepted form content against an elicitation `requestedSchema` (flat primitives per the
 * spec: string, number, integer, boolean, single- and multi-select enums). Returns per-field
 * messages; an empty list means valid. The SDK validates again before sending.
 */
export function checkFormContent(schema: unknown, content: Record<string, unknown>): { field: string; message: string }[] {
  const errors: { field: string; message: string }[] = [];
  const s = (schema ?? {}) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const properties = s.properties ?? {};
  for (const name of s.required ?? []) {
    if (content[name] === undefined || content[name] === "") errors.push({ field: name, message: "Required" });
  }
  for (const [name, value] of Object.entries(content)) {
    const prop = properties[name];
    if (!prop) {
      errors.push({ field: name, message: "Not part of the requested form" });
      continue;
    }
    const message = checkValue(prop, value);
    if (message) errors.push({ field: name, message });
  }
  return errors;
}

function checkValue(prop: Record<string, unknown>, value: unknown): string | null {
  switch (prop.type) {
    case "string": {
      if (typeof value !== "string") return "Must be text";
      const allowed = enumValues(prop);
      if (allowed && !allowed.includes(value)) return "Not one of the choices";
      return null;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "Must be a number";
      if (prop.type === "integer" && !Number.isInteger(value)) return "Must be a whole number";
      if (typeof prop.minimum === "number" && value < prop.minimum) return `At least ${prop.minimum}`;
      if (typeof prop.maximum === "number" && value > prop.maximum) return `At most ${prop.maximum}`;
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : "Must be true or false";
    case "array": {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return "Must be a list of choices";
      const allowed = enumValues((prop.items ?? {}) as Record<string, unknown>);
      if (allowed && value.some((v) => !allowed.includes(v as string))) return "Not one of the choices";
      if (typeof prop.minItems === "number" && value.length < prop.minItems) return `Pick at least ${prop.minItems}`;
      if (typeof prop.maxItems === "number" && value.length > prop.maxItems) return `Pick at most ${prop.maxItems}`;
      return null;
    }
    default:
      return null;
  }
}

/**
 * Accepted content with the requested schema's `default`s filled in for every field the answer
 * leaves out (SEP-1034): accepting with `{}` means "the defaults". Given values are kept as is.
 */
export function withFormDefaults(schema: unknown, content: Record<string, unknown>): Record<string, unknown> {
  const properties = ((schema ?? {}) as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  const filled = { ...content };
  for (const [name, prop] of Object.entries(properties)) {
    if (filled[name] === undefined && prop && typeof prop === "object" && "default" in prop) filled[name] = prop.default;
  }
  return filled;
}

/** The allowed values of an enum schema: `enum`, or the `const`s of `oneOf`/`anyOf` (titled enums). */
export function enumValues(prop: Record<string, unknown>): string[] | null {
  if (Array.isArray(prop.enum)) return prop.enum.map(String);
  const options = (prop.oneOf ?? prop.anyOf) as { const?: unknown }[] | undefined;
  if (Array.isArray(options)) return options.map((o) => String(o.const));
  return null;
}
