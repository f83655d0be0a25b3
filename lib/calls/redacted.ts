import "server-only";
import { encryptJson } from "@/lib/crypto";
import { DEFAULT_REDACTION_KEYS, mentionsSecretValue, redact, type SecretValues } from "@/lib/redaction";
import { serverSecretValues } from "@/lib/oauth/server";

/** The server's stored secret values (cached): what a recorded call must not show. */
export function callSecrets(call: { workspaceId: string; serverId: string; row?: Parameters<typeof serverSecretValues>[0]["row"] }): Promise<SecretValues> {
  return serverSecretValues({ workspaceId: call.workspaceId, serverId: call.serverId, row: call.row });
}

/**
 * The arguments as history keeps them: secret-named fields (also inside JSON in strings) and the
 * server's stored secret values masked; the original sealed for Run again when anything was.
 */
export function recordedParams(params: Record<string, unknown>, secrets: SecretValues): { params: string; paramsSecret: string | null } {
  const shown = redact(params, DEFAULT_REDACTION_KEYS, { secrets });
  return { params: JSON.stringify(shown.value), paramsSecret: shown.masked.length ? encryptJson(params) : null };
}

/**
 * A result or error (JSON text) as history keeps it: the server's stored secret values masked
 * wherever they occur. Results keep their field names (the person who called sees what came back).
 */
export function recordedText(text: string, secrets: SecretValues): string;
export function recordedText(text: string | null, secrets: SecretValues): string | null;
export function recordedText(text: string | null, secrets: SecretValues): string | null {
  if (text === null || !mentionsSecretValue(text, secrets)) return text;
  // Masked on the parsed value, so that a number or a JSON escape is never cut in half.
  return JSON.stringify(redact(JSON.parse(text) as unknown, [], { secrets }).value);
}
