import { describe, expect, it } from "vitest";
import { validateArguments } from "@/lib/core/json-schema";
import { checkFormContent, withFormDefaults } from "@/lib/domains/interactions/validate";

// The conformance suite's http-custom-headers tool (0.2.0-alpha.12), trimmed.
const customHeaders = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    priority: { type: "integer", "x-mcp-header": "Priority" },
    verbose: { type: "boolean", "x-mcp-header": "Verbose" },
    query: { type: "string" },
  },
  required: ["region", "priority", "query"],
};

describe("tool argument validation", () => {
  it("takes null for an optional parameter as not provided", () => {
    expect(validateArguments(customHeaders, { region: "us-west1", priority: 42, verbose: null, query: "q" })).toEqual([]);
  });

  it("still refuses null for a required parameter and wrong types", () => {
    expect(validateArguments(customHeaders, { region: null, priority: 42, query: "q" })).toEqual([{ path: "/region", message: "must be string" }]);
    expect(validateArguments(customHeaders, { region: "x", priority: 42, verbose: "yes", query: "q" })).toEqual([{ path: "/verbose", message: "must be boolean" }]);
  });

  it("accepts null where the schema allows it", () => {
    const schema = { type: "object", properties: { note: { type: ["string", "null"] } }, required: ["note"] };
    expect(validateArguments(schema, { note: null })).toEqual([]);
  });
});

describe("elicitation form defaults", () => {
  // The suite's elicitation-sep1034-client-defaults request.
  const requested = {
    type: "object",
    properties: {
      name: { type: "string", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
      note: { type: "string" },
    },
    required: ["name"],
  };

  it("fills every default when accepting with {}", () => {
    const filled = withFormDefaults(requested, {});
    expect(filled).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true });
    expect(checkFormContent(requested, filled)).toEqual([]);
  });

  it("keeps the values a person gave, including false and 0", () => {
    expect(withFormDefaults(requested, { verified: false, age: 0, note: "hi" })).toEqual({
      name: "John Doe",
      age: 0,
      score: 95.5,
      status: "active",
      verified: false,
      note: "hi",
    });
  });
});
