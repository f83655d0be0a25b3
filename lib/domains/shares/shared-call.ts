import { NO_SECRETS, redact, type SecretValues } from "@/lib/core/redaction";
import type { CallError, CallMethod, CallOrigin, CallStatus } from "@/lib/domains/calls";
import type { ServerKind } from "@/lib/domains/servers";
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
  server: { name: string; url: string | null; kind: string };
}

/**
 * The call as anyone with the link sees it: ids, people and the workspace left out; every field
 * of the arguments, result and error whose name is on the redaction list masked, also inside
 * text that is itself JSON (a tool returning `JSON.stringify(row)` as text content), and the
 * server's stored secret values masked wherever they appear.
 */
export function toSharedCall(source: ShareSource, keys: string[], secrets: SecretValues = NO_SECRETS): { call: SharedCall; masked: string[] } {
  const serverUrl = publicUrl(source.server.url);
  const error = source.error ? (JSON.parse(source.error) as CallError) : null;
  if (error) error.message = scrubUrls(error.message, source.server.url, serverUrl);
  if (error) delete error.oauth; // names the server's id; a shared page offers no sign-in anyway
  const { value, masked } = redact(
    { params: JSON.parse(source.params) as unknown, result: source.result === null ? null : (JSON.parse(source.result) as unknown), error },
    keys,
    { secrets },
  );
  const body = value as { params: unknown; result: unknown; error: CallError | null };
  return {
    call: {
      method: source.method as CallMethod,
      name: source.name,
      status: source.status as CallStatus,
      isError: source.isError,
      origin: source.origin as CallOrigin,
      server: { name: source.server.name, url: serverUrl, kind: source.server.kind as ServerKind },
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
