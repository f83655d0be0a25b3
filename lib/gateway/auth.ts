import "server-only";
import type { Role } from "@/lib/access";
import { requestOrigin } from "@/lib/auth";
import { fromToken } from "@/lib/auth/server";
import { SwitchboardError } from "@/lib/errors";
import { gatewayPath } from "./index";
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

/** The URL a host connects to, and the resource its tokens are issued for. */
export function resourceUrl(request: Request, slug: string, serverName?: string): string {
  const base = process.env.SWITCHBOARD_URL ? new URL(process.env.SWITCHBOARD_URL).origin : requestOrigin(request);
  return `${base}${gatewayPath(slug, serverName)}`;
}

/** RFC 9728: the protected resource metadata of a resource sits at its path under the well-known prefix. */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}

export function challenge(resource: string, error: GatewayAuthError["error"], message: string): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(resource)}"`, `scope="gateway"`];
  if (error) parts.push(`error="${error}"`, `error_description="${message.replace(/["\\]/g, "")}"`);
  return `Bearer ${parts.join(", ")}`;
}

export async function authenticateGateway(request: Request, route: Pick<GatewayRoute, "workspaceId">): Promise<GatewayPrincipal> {
  const header = request.headers.get("authorization") ?? "";
  if (!/^bearer /i.test(header)) throw new GatewayAuthError(401, null, "This endpoint needs a bearer token: an API token with the gateway scope, or sign in with OAuth");
  const token = header.slice(7).trim();
  const principal = await fromToken(token, request).catch((err: unknown) => {
    throw new GatewayAuthError(401, "invalid_token", err instanceof SwitchboardError ? err.message : "Invalid token");
  });
  if (!principal.tokenGateway) throw new GatewayAuthError(403, "insufficient_scope", "This API token lacks the gateway scope");
  if (principal.workspaceId !== route.workspaceId) throw new GatewayAuthError(401, "invalid_token", "This token belongs to another workspace");
  return {
    userId: principal.userId,
    userName: principal.userName,
    workspaceId: principal.workspaceId,
    role: principal.role,
    tokenId: principal.tokenId ?? null,
    oauthClientId: null,
    limitKey: `token:${principal.tokenId}`,
  };
}
