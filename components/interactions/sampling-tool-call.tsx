"use client";

import { Field, Select, Textarea } from "@/components/ui/field";
import { checkSamplingReply, type SamplingTool, type ToolCallDraft } from "@/lib/domains/interactions";
import { validateArguments } from "@/lib/core/json-schema";

/** The tool call a person is writing: the tool's name and the JSON input as typed. */
export interface ToolCallText {
  name: string;
  json: string;
}

/**
 * Parses and checks a tool call against the request (offered tools, `toolChoice`, the tool's
 * inputSchema). Returns the call, or the message to show under the input.
 */
export function parseToolCall(request: { tools?: unknown; toolChoice?: unknown }, draft: ToolCallText): { call: ToolCallDraft } | { error: string } {
  let input: unknown;
  try {
    input = JSON.parse(draft.json || "{}");
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (!input || typeof input !== "object" || Array.isArray(input)) return { error: "The input must be a JSON object" };
  const call = { name: draft.name, input: input as Record<string, unknown> };
  const errors = checkSamplingReply(request, { toolUses: [call] }, validateArguments);
  if (errors.length) return { error: errors.map((e) => (e.field.includes(".input") ? `${e.field.replace(/^toolUses\.\d+\.input/, "") || "/"} ${e.message}` : e.message)).join("; ") };
  return { call };
}

/** Pick one of the offered tools and write its JSON input; errors show inline as you type. */
export function ToolCallEditor({ tools, value, onChange, error }: { tools: SamplingTool[]; value: ToolCallText; onChange: (v: ToolCallText) => void; error: string | null }) {
  return (
    <div className="flex flex-col gap-2">
      <Field label="Tool">
        {(aria) => (
          <Select {...aria} value={value.name} onChange={(e) => onChange({ ...value, name: e.target.value })}>
            {tools.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Tool input (JSON)" error={error}>
        {(aria) => <Textarea {...aria} rows={5} spellCheck={false} value={value.json} onChange={(e) => onChange({ ...value, json: e.target.value })} />}
      </Field>
    </div>
  );
}
