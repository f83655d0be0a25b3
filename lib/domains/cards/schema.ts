/**
 * JSON Schema (draft-07) of a Switchboard UI card, version 1. A tool result carries cards in
 * `_meta["io.switchboard/card"]`: one card or an array of up to 10. See docs/ui-cards.md.
 */
const label = { type: "string", minLength: 1, maxLength: 80 };

export const CARD_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://switchboard.dev/schemas/card/v1.json",
  title: "Switchboard UI card",
  type: "object",
  required: ["version", "title"],
  additionalProperties: false,
  properties: {
    version: { const: 1 },
    title: { type: "string", minLength: 1, maxLength: 200 },
    subtitle: { type: "string", maxLength: 300 },
    body: { type: "string", maxLength: 20_000 },
    bodyFormat: { enum: ["plain", "markdown"], default: "plain" },
    fields: {
      type: "array",
      maxItems: 50,
      items: {
        type: "object",
        required: ["label", "value"],
        additionalProperties: false,
        properties: { label, value: { type: ["string", "number", "boolean", "null"] } },
      },
    },
    actions: {
      type: "array",
      maxItems: 10,
      items: {
        type: "object",
        required: ["type", "label"],
        oneOf: [
          {
            additionalProperties: false,
            properties: { type: { const: "copy" }, label, value: { type: "string", maxLength: 100_000 } },
            required: ["value"],
          },
          {
            additionalProperties: false,
            properties: { type: { const: "open-link" }, label, url: { type: "string", maxLength: 4000, pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" } },
            required: ["url"],
          },
          {
            additionalProperties: false,
            properties: {
              type: { const: "call-tool" },
              label,
              tool: { type: "string", minLength: 1, maxLength: 500 },
              arguments: { type: "object", default: {} },
            },
            required: ["tool"],
          },
        ],
      },
    },
  },
} as const;
