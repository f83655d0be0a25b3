/**
 * Sampling with tools: the spec's sequencing rules for an incoming `sampling/createMessage`, and
 * what a person may reply given the tools and `toolChoice` offered. Isomorphic (the dialog shows
 * the same errors the API returns). The JSON Schema check of a tool's input is passed in
 * (`validateArguments` from lib/core/json-schema), so that ajv is not in every page that imports this door.
 */
import type { FieldError } from "@/lib/core/json-schema";
import type { ToolDefinition } from "@/lib/mcp";

/** Checks a value against a JSON Schema: lib/core/json-schema's `validateArguments`. */
type ValidateArguments = (schema: unknown, args: unknown) => FieldError[];

/** A tool as offered in a sampling request (the spec's Tool; only these fields matter here). */
export type SamplingTool = Pick<ToolDefinition, "name" | "description" | "inputSchema">;

/** `toolChoice.mode` per the spec; `name` is a non-standard restriction honoured when present. */
export interface SamplingToolChoice {
  mode?: "auto" | "required" | "none";
  name?: string;
}

type Block = { type?: string; id?: string; toolUseId?: string; [key: string]: unknown };
type Message = { role?: string; content?: unknown };

/** The blocks of a message's content (a single block or an array). */
export function contentBlocks(content: unknown): Block[] {
  const list = Array.isArray(content) ? content : [content];
  return list.filter((b): b is Block => !!b && typeof b === "object");
}

/**
 * Checks the messages of a sampling request against the spec's tool-use sequencing: `tool_use`
 * only from the assistant, `tool_result` only from the user; a user message with tool results
 * holds nothing else; an assistant message with tool uses is followed at once by a user message
 * answering every one of its ids (and no other). Returns the first violation, or null.
 */
export function checkSamplingSequence(params: { messages?: unknown; tools?: unknown }): string | null {
  const messages = Array.isArray(params.messages) ? (params.messages as Message[]) : [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    const blocks = contentBlocks(message.content);
    const uses = blocks.filter((b) => b.type === "tool_use");
    const results = blocks.filter((b) => b.type === "tool_result");
    if (uses.length && message.role !== "assistant") return `Message ${i + 1}: tool_use blocks must come from the assistant`;
    if (results.length && message.role !== "user") return `Message ${i + 1}: tool_result blocks must come from the user`;
    if (results.length && results.length !== blocks.length) return `Message ${i + 1}: a message with tool_result blocks must contain only tool results`;
    if (results.length) {
      const previous = i > 0 ? contentBlocks(messages[i - 1].content).filter((b) => b.type === "tool_use") : [];
      if (!previous.length) return `Message ${i + 1}: tool_result blocks do not answer a tool_use in the previous assistant message`;
      const want = new Set(previous.map((b) => String(b.id)));
      const got = new Set(results.map((b) => String(b.toolUseId)));
      if (want.size !== got.size || [...want].some((id) => !got.has(id))) {
        return `Message ${i + 1}: tool_result ids [${[...got].join(", ")}] do not match the tool_use ids [${[...want].join(", ")}] of the previous message`;
      }
    }
    if (uses.length) {
      const next = messages[i + 1];
      if (next && !contentBlocks(next.content).some((b) => b.type === "tool_result")) {
        return `Message ${i + 2}: the tool_use blocks of message ${i + 1} must be answered by tool_result blocks first`;
      }
    }
  }
  return null;
}

/** One tool call a person writes: a tool offered in the request and its JSON input. */
export interface ToolCallDraft {
  name: string;
  input: Record<string, unknown>;
}

interface ReplyError {
  field: string;
  message: string;
}

/**
 * Checks a person's reply against the request: text is forbidden by `toolChoice.mode: "required"`,
 * tool calls by `"none"` or when no tools were offered; each call must name an offered tool (the
 * one named by `toolChoice.name`, if any) and its input must match that tool's inputSchema.
 */
export function checkSamplingReply(
  request: { tools?: unknown; toolChoice?: unknown },
  reply: { text?: string; toolUses?: ToolCallDraft[] },
  validateArguments: ValidateArguments,
): ReplyError[] {
  const tools = Array.isArray(request.tools) ? (request.tools as SamplingTool[]) : [];
  const choice = (request.toolChoice ?? {}) as SamplingToolChoice;
  const uses = reply.toolUses ?? [];
  const errors: ReplyError[] = [];
  if (!uses.length) {
    if (choice.mode === "required") errors.push({ field: "text", message: "The server requires a tool call (toolChoice: required)" });
    return errors;
  }
  if (!tools.length) return [{ field: "toolUses", message: "The server offered no tools" }];
  if (choice.mode === "none") return [{ field: "toolUses", message: "The server forbids tool calls (toolChoice: none)" }];
  uses.forEach((use, i) => {
    const tool = tools.find((t) => t.name === use.name);
    if (!tool) errors.push({ field: `toolUses.${i}.name`, message: `"${use.name}" is not one of the tools offered` });
    else if (choice.name && choice.name !== use.name) errors.push({ field: `toolUses.${i}.name`, message: `The server allows only "${choice.name}"` });
    else for (const e of validateArguments(tool.inputSchema, use.input)) errors.push({ field: `toolUses.${i}.input${e.path === "/" ? "" : e.path}`, message: e.message });
  });
  return errors;
}
