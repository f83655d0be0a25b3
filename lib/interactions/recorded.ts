import "server-only";
import { redact } from "@/lib/redaction";
import { sessionSecrets } from "@/lib/traffic/server";

/**
 * A server request's params (or the answer sent back) as JSON text for the interaction row: the
 * session's secret values masked (the server's stored ones and those its calls brought, since a
 * server may quote a call's arguments). The person answering sees it masked too: anyone who may
 * read the workspace's interactions reads the same row. Field names stay, as a form may ask for
 * a "password".
 */
export async function recordedJson({ workspaceId, serverId, sessionId, value }: { workspaceId: string; serverId: string; sessionId: string | null; value: unknown }): Promise<string> {
  const secrets = await sessionSecrets({ workspaceId, serverId, sessionId });
  return JSON.stringify(redact(value, [], { secrets }).value);
}
