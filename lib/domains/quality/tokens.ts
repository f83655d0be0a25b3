import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { DefinitionSet, TokenItem } from "./index";

/** The tokenizer and its package version (tests/unit/quality-lint.test.ts holds it to the installed one). */
export const TOKENIZER = "o200k_base (gpt-tokenizer 4.0.0)";

/** A special token's text (`<|endoftext|>`) in a definition is counted as ordinary text, never refused. */
const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const json = (value: unknown) => count(JSON.stringify(value));

/**
 * What the definitions cost a model: each tool, prompt and resource as the JSON of the object the
 * server listed, and the server's total as the JSON of each non-empty list (tools, prompts,
 * resources; templates are not sent to models) — the arrays' brackets and commas included.
 */
export function tokenCost(data: Pick<DefinitionSet, "tools" | "prompts" | "resources">): { total: number; items: TokenItem[] } {
  const items: TokenItem[] = [
    ...data.tools.map((t) => ({ kind: "tool" as const, name: String(t.name ?? ""), tokens: json(t) })),
    ...data.prompts.map((p) => ({ kind: "prompt" as const, name: String(p.name ?? ""), tokens: json(p) })),
    ...data.resources.map((r) => ({ kind: "resource" as const, name: String(r.uri ?? ""), tokens: json(r) })),
  ];
  return { total: totalTokens(data), items };
}

export function totalTokens(data: Pick<DefinitionSet, "tools" | "prompts" | "resources">): number {
  return [data.tools, data.prompts, data.resources].reduce((sum, list) => sum + (list.length ? json(list) : 0), 0);
}
