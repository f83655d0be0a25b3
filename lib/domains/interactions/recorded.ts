import "server-only";
import { redact, type SecretValues } from "@/lib/core/redaction";

/**
 * A server request's params (or the answer sent back) as JSON text for the interaction row: the
 * session's secret values masked (the server's stored ones and those its calls brought, since a
 * server may quote a call's arguments). The person answering sees it masked too: anyone who may
 * read the workspace's interactions reads the same row. Field names stay, as a form may ask for
 * a "password".
 */
export function recordedJson({ secrets, value }: { secrets: SecretValues; value: unknown }): string {
  return JSON.stringify(redact(value, [], { secrets }).value);
}
