import "server-only";
import { isOwnDatabaseOutage } from "@/lib/core/db/client";
import { ServedElsewhere, SwitchboardError } from "@/lib/core/errors";
import { classifyFailure, toApiError, type Failure } from "@/lib/mcp/server";
import { oauthFailure } from "@/lib/domains/server-oauth/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";

/** What a server or its transport threw, classified (lib/mcp/failures.ts), an authorization failure read as a missing sign-in. */
export function serverFailure(server: ServerSecretRow, err: unknown): Failure {
  return oauthFailure(server, classifyFailure(err));
}

/** The API's error for a server's failure; a request served by another instance passes through. */
export function upstreamFailure(server: ServerSecretRow, err: unknown): Error {
  if (err instanceof ServedElsewhere) return err;
  // The console's own database failing is not the server's failure: a 503, the fault as its cause.
  if (isOwnDatabaseOutage(err)) {
    return Object.assign(new SwitchboardError("unavailable", "The console's database failed during the exchange with the server. Try again shortly", { retryAfter: 2 }), { cause: err });
  }
  return toApiError(serverFailure(server, err));
}

/** Runs one exchange with a server, its failure converted by `upstreamFailure`. */
export async function upstream<T>(server: ServerSecretRow, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw upstreamFailure(server, err);
  }
}
