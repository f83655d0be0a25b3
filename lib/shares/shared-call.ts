import { redact } from "@/lib/redaction";
import type { CallError, CallMethod, CallOrigin, CallStatus } from "@/lib/calls";
import type { SharedCall } from "./index";

/** What the public view is built from: a stored call and its server. */
export interface ShareSource {
  method: string;
  name: string;
  status: string;
  isError: boolean;
  origin: string;
  params: string;
  result: string | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  requestSize: number;
  resultSize: number | null;
  server: { name: string; url: string | null };
}

// Texts up to this size that hold JSON are parsed and masked inside; bigger ones are left whole.
const MAX_JSON_TEXT = 1024 * 1024;
const MAX_JSON_DEPTH = 3;

/**
 * The call as anyone with the link sees it: ids, people and the workspace left out; every field
 * of the arguments, result and error whose name is on the redaction list masked, also inside
 * text that is itself JSON (a tool returning `JSON.stringify(row)` as text content).
 */
export function toSharedCall(source: ShareSource, keys: string[]): { call: SharedCall; masked: string[] } {
  const serverUrl = publicUrl(source.server.url);
  const error = source.error ? (JSON.parse(source.error) as CallError) : null;
  if (error) error.message = scrubUrls(error.message, source.server.url, serverUrl);
  if (error) delete error.oauth; // names the server's id; a shared page offers no sign-in anyway
  const { value, masked } = redactDeep(
    { params: JSON.parse(source.params) as unknown, result: source.result === null ? null : (JSON.parse(source.result) as unknown), error },
    keys,
    "",
    0,
  );
  const body = value as { params: unknown; result: unknown; error: CallError | null };
  return {
    call: {
      method: source.method as CallMethod,
      name: source.name,
      status: source.status as CallStatus,
      isError: source.isError,
      origin: source.origin as CallOrigin,
      server: { name: source.server.name, url: serverUrl },
      params: body.params,
      result: body.result,
      error: body.error,
      startedAt: source.startedAt.toISOString(),
      finishedAt: source.finishedAt?.toISOString() ?? null,
      durationMs: source.durationMs,
      requestSize: source.requestSize,
      resultSize: source.resultSize,
    },
    masked,
  };
}

/** Origin and path only: no user info, query or fragment (where URLs carry keys). */
export function publicUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return null;
  }
}

// A connection error's message may quote the server URL with its credentials.
function scrubUrls(message: string, full: string | null, safe: string | null): string {
  const quoted = full && safe ? message.split(full).join(safe) : message;
  return quoted.replace(/(https?:\/\/)[^\s/@]+@/gi, "$1");
}

function redactDeep(value: unknown, keys: string[], base: string, depth: number): { value: unknown; masked: string[] } {
  const first = redact(value, keys);
  const masked = first.masked.map((p) => join(base, p));
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === "string") return maskJsonText(node, path);
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, path ? `${path}.${key}` : key)]));
    }
    return node;
  };
  const maskJsonText = (text: string, path: string): string => {
    if (depth >= MAX_JSON_DEPTH || text.length > MAX_JSON_TEXT) return text;
    const trimmed = text.trim();
    const looksJson = (trimmed.startsWith("{") && trimmed.endsWith("}")) || (trimmed.startsWith("[") && trimmed.endsWith("]"));
    if (!looksJson) return text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return text;
    }
    const inner = redactDeep(parsed, keys, `${join(base, path)}(json)`, depth + 1);
    if (inner.masked.length === 0) return text;
    masked.push(...inner.masked);
    return JSON.stringify(inner.value, null, trimmed.includes("\n") ? 2 : undefined);
  };
  return { value: walk(first.value, ""), masked };
}

function join(base: string, path: string): string {
  if (!base) return path;
  if (!path) return base;
  return path.startsWith("[") ? `${base}${path}` : `${base}.${path}`;
}
