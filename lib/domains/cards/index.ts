import Ajv from "ajv";
import { CARD_SCHEMA } from "./schema";

/** The `_meta` key of a tool result that holds one card or an array of cards. */
export const CARD_META_KEY = "io.switchboard/card";
const MAX_CARDS = 10;
export { CARD_SCHEMA };

export type CardAction =
  | { type: "copy"; label: string; value: string }
  | { type: "open-link"; label: string; url: string }
  | { type: "call-tool"; label: string; tool: string; arguments?: Record<string, unknown> };

export interface Card {
  version: 1;
  title: string;
  subtitle?: string;
  body?: string;
  bodyFormat?: "plain" | "markdown";
  fields?: { label: string; value: string | number | boolean | null }[];
  actions?: CardAction[];
}

/** One entry of `_meta["io.switchboard/card"]`: a card, or why it was refused (with the raw value). */
export type CardEntry = { ok: true; card: Card } | { ok: false; raw: unknown; errors: string[] };

let validator: ReturnType<Ajv["compile"]> | undefined;

function validate(value: unknown): string[] {
  validator ??= new Ajv({ allErrors: true, strict: false, useDefaults: false }).compile(CARD_SCHEMA);
  if (validator(value)) return [];
  const errors = (validator.errors ?? []).filter((e) => e.keyword !== "oneOf" && e.keyword !== "const" && e.keyword !== "if");
  const list = errors.length ? errors : validator.errors ?? [];
  return list.map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`).slice(0, 10);
}

/**
 * The cards a tool result carries, validated against CARD_SCHEMA. Returns [] when the result has
 * none; invalid cards come back as `{ ok: false }` so the caller can show a notice and the raw value.
 */
export function findCards(result: unknown): CardEntry[] {
  if (!result || typeof result !== "object") return [];
  const meta = (result as { _meta?: unknown })._meta;
  if (!meta || typeof meta !== "object" || !(CARD_META_KEY in meta)) return [];
  const value = (meta as Record<string, unknown>)[CARD_META_KEY];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_CARDS) return [{ ok: false, raw: value, errors: [`/ more than ${MAX_CARDS} cards`] }];
  return list.map((raw) => {
    const errors = validate(raw);
    return errors.length ? { ok: false, raw, errors } : { ok: true, card: raw as Card };
  });
}

/** True for an absolute http(s) URL; the only links a card may open. */
export function isOpenableUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:";
  } catch {
    return false;
  }
}
