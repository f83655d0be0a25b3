import "server-only";
import type { RequestHead, Role } from "@/lib/core/access";
import { consoleOrigin } from "@/lib/identity/auth";
import { fromToken, grantPrincipal } from "@/lib/identity/auth/server";
import { SwitchboardError } from "@/lib/core/errors";
import { gatewayChallenge, gatewayResourceUrl } from "@/lib/identity/gateway-auth";
import { verifyGatewayAccessToken } from "@/lib/identity/gateway-auth/server";
import type { GatewayRoute } from "./routes";

/** Who is behind a gateway request, checked again on every request (roles apply at once). */
export interface GatewayPrincipal {
  userId: string;
  userName: string;
  workspaceId: string;
  role: Role;
  tokenId: string | null;
  oauthClientId: string | null;
  /** Whose calls share a rate limit: one API token, or one OAuth client acting for one person. */
  limitKey: string;
}

/** A refused credential: 401 with the challenge that sends an MCP host to sign in, or 403. */
export class GatewayAuthError extends Error {
  constructor(
    readonly status: 401 | 403,
    readonly error: "invalid_token" | "insufficient_scope" | null,
    message: string,
  ) {
    super(message);
  }
}

/** The URL a host connects to: the resource its OAuth tokens are issued for. */
export function resourceUrl(request: RequestHead, slug: string, serverName?: string): string {
  return gatewayResourceUrl(consoleOrigin(request), slug, serverName);
}

export function challenge(resource: string, error: GatewayAuthError["error"]): string {
  return gatewayChallenge(resource, error ?? undefined);
}

// API tokens are "sb_…" (lib/core/crypto newToken); anything else is an OAuth access token.
const API_TOKEN = /^sb_/;

/**
 * A gateway request's bearer: an API token with the gateway scope of the path's workspace, or an
 * OAuth access token the console issued for this endpoint (or its workspace's aggregated one) to
 * a member of the workspace.
 */
export async function authenticateGateway(request: RequestHead, route: Pick<GatewayRoute, "workspaceId">, resource: string | (() => string)): Promise<GatewayPrincipal> {
  const header = request.headers.get("authorization") ?? "";
  if (!/^bearer /i.test(header)) throw new GatewayAuthError(401, null, "This endpoint needs a bearer token: sign in with OAuth, or an API token with the gateway scope");
  const token = header.slice(7).trim();
  if (API_TOKEN.test(token)) {
    // Only a refused token is the host's to fix; anything else (the database away) is converted as the API's is.
    const principal = await fromToken(token, request).catch((err: unknown) => {
      throw err instanceof SwitchboardError && err.code === "unauthorized" ? new GatewayAuthError(401, "invalid_token", err.message) : err;
    });
    if (!principal.tokenGateway) throw new GatewayAuthError(403, "insufficient_scope", "This API token lacks the gateway scope");
    if (principal.workspaceId !== route.workspaceId) throw new GatewayAuthError(401, "invalid_token", "This token belongs to another workspace");
    return { ...pick(principal), tokenId: principal.tokenId ?? null, oauthClientId: null, limitKey: `token:${principal.tokenId}` };
  }
  const grant = await verifyGatewayAccessToken(token, typeof resource === "string" ? resource : resource());
  if (!grant) throw new GatewayAuthError(401, "invalid_token", "The access token is invalid, expired, revoked or for another endpoint");
  const principal = await grantPrincipal(grant.userId, route.workspaceId, request);
  if (!principal) throw new GatewayAuthError(403, "invalid_token", "You are no longer a member of this workspace");
  return { ...pick(principal), tokenId: null, oauthClientId: grant.clientId, limitKey: `oauth:${grant.clientId}:${grant.userId}` };
}

function pick(p: { userId: string; userName: string; workspaceId: string; role: Role }) {
  return { userId: p.userId, userName: p.userName, workspaceId: p.workspaceId, role: p.role };
}
