import "server-only";
import { ServedElsewhere, SwitchboardError } from "@/lib/errors";
import { explainError, McpError } from "@/lib/mcp/server";
import { oauthFailure } from "@/lib/oauth/server";
import type { ServerSecretRow } from "@/lib/servers/server";

/**
 * The one conversion of what a server or its transport threw into the API's error: our own
 * errors pass through, an authorization failure asks the person to sign in, a refused address is
 * 403, anything else from upstream 502 with its kind (and JSON-RPC code or HTTP status).
 */
export function upstreamFailure(server: ServerSecretRow, err: unknown): Error {
  if (err instanceof SwitchboardError || err instanceof ServedElsewhere) return err;
  const signIn = oauthFailure(server, err);
  if (signIn) return signIn;
  const e = err instanceof McpError ? err : explainError(err);
  const details = { kind: e.kind, ...(e.code === undefined ? {} : { code: e.code }), ...(e.status === undefined ? {} : { status: e.status }) };
  return new SwitchboardError(e.kind === "blocked" ? "forbidden" : "upstream_error", e.message, details);
}

/** Runs one exchange with a server, its failure converted by `upstreamFailure`. */
export async function upstream<T>(server: ServerSecretRow, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw upstreamFailure(server, err);
  }
}
