import "server-only";
import { decryptJson, encryptJson } from "@/lib/core/crypto";
import { DEFAULT_REDACTION_KEYS, joinSecretValues, mentionsSecretValue, redact, type SecretValues } from "@/lib/core/redaction";
import { serverSecretValues } from "@/lib/domains/server-oauth/server";

/**
 * What a recorded call must not show: the server's stored secret values (cached) and the call's
 * own (`own`: secrets its caller put into the request, such as a collection environment's).
 */
export async function callSecrets(call: { workspaceId: string; serverId: string; row?: Parameters<typeof serverSecretValues>[0]["row"]; own?: SecretValues }): Promise<SecretValues> {
  const stored = await serverSecretValues({ workspaceId: call.workspaceId, serverId: call.serverId, row: call.row });
  return joinSecretValues(stored, call.own);
}

/**
 * The request as history keeps it: its name (tool, prompt or resource URI) and arguments with
 * secret-named fields (also inside JSON in strings) and secret values masked. When anything was,
 * the original is sealed for Run again, with those of the call's own secret values that it holds
 * (a re-run masks them again; the server's are read afresh).
 */
export function recordedRequest({ name, params, secrets, own }: { name: string; params: Record<string, unknown>; secrets: SecretValues; own?: SecretValues }): { name: string; params: string; paramsSecret: string | null } {
  const shownName = redact(name, DEFAULT_REDACTION_KEYS, { secrets });
  const shown = redact(params, DEFAULT_REDACTION_KEYS, { secrets });
  if (!shownName.masked.length && !shown.masked.length) return { name, params: JSON.stringify(shown.value), paramsSecret: null };
  const sent = `${name}\n${JSON.stringify(params)}`;
  const held = (own?.values ?? []).filter((value) => sent.includes(value));
  return { name: shownName.value, params: JSON.stringify(shown.value), paramsSecret: encryptJson(held.length ? [params, held] : params) };
}

/**
 * The request to send again: as `recordedRequest` sealed it (the name as the request carried it,
 * and the call's own secret values in it), else as recorded.
 */
export function sealedRequest({ sealed, method, recorded }: { sealed: string | null; method: string; recorded: { name: string; params: Record<string, unknown> } }): { name: string; params: Record<string, unknown>; secrets?: SecretValues } {
  if (!sealed) return recorded;
  const { params, own } = openSealed(sealed);
  const name = method === "resources/read" ? params.uri : params.name;
  return { name: typeof name === "string" ? name : recorded.name, params, secrets: own };
}

/** The call's own secret values that `recordedRequest` sealed with its request (for a task's outcome, recorded later). */
export function sealedSecrets(sealed: string | null): SecretValues | undefined {
  return sealed ? openSealed(sealed).own : undefined;
}

// Older rows sealed the params alone (always an object); now an array when own secrets came along.
function openSealed(sealed: string): { params: Record<string, unknown>; own: SecretValues } {
  const opened = decryptJson<Record<string, unknown> | [Record<string, unknown>, string[]]>(sealed);
  const [params, own] = Array.isArray(opened) ? opened : [opened, []];
  return { params, own: { values: [...own].sort((a, b) => b.length - a.length) } };
}

/**
 * A result, error or progress (JSON text) as history keeps it: secret values masked wherever they
 * occur. Results keep their field names (the person who called sees what came back).
 */
export function recordedText(text: string, secrets: SecretValues): string;
export function recordedText(text: string | null, secrets: SecretValues): string | null;
export function recordedText(text: string | null, secrets: SecretValues): string | null {
  if (text === null || !mentionsSecretValue(text, secrets)) return text;
  // Masked on the parsed value, so that a number or a JSON escape is never cut in half.
  return JSON.stringify(redact(JSON.parse(text) as unknown, [], { secrets }).value);
}
