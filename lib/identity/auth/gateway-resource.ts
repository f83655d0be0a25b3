// Gateway endpoints as OAuth protected resources (RFC 8707 / RFC 9728): names and URLs only, no I/O.

/** List, read and call through the gateway (the role decides which, at call time). */
export const GATEWAY_SCOPE = "gateway";
/** A refresh token, so that a host stays connected past the access token's hour. */
const OFFLINE_ACCESS_SCOPE = "offline_access";
/** Every scope the console's authorization server grants. */
export const GATEWAY_SCOPES = [GATEWAY_SCOPE, OFFLINE_ACCESS_SCOPE] as const;

const PRM_PREFIX = "/.well-known/oauth-protected-resource";
const ENDPOINT = /^\/mcp\/([^/]+)(?:\/([^/]+))?$/;

/** A gateway endpoint: one server of a workspace, or (serverName null) the workspace's aggregated endpoint. */
interface GatewayResource {
  /** The endpoint's URL exactly as tokens name it (`resource`, `aud`). */
  url: string;
  origin: string;
  workspaceSlug: string;
  serverName: string | null;
}

/** The path of a workspace's server endpoint (names URL-encoded), or of its aggregated endpoint without a server name. */
export function gatewayPath(workspaceSlug: string, serverName?: string | null): string {
  const server = serverName == null ? "" : `/${encodeURIComponent(serverName)}`;
  return `/mcp/${encodeURIComponent(workspaceSlug)}${server}`;
}

/** The URL of a workspace's server endpoint, or of its aggregated endpoint without a server name. */
export function gatewayResourceUrl(origin: string, workspaceSlug: string, serverName?: string | null): string {
  return `${new URL(origin).origin}${gatewayPath(workspaceSlug, serverName)}`;
}

/**
 * Reads a gateway endpoint URL, or null when it is not one. Only the canonical spelling passes
 * (names encoded as `encodeURIComponent` does, no query, fragment or trailing slash), so that
 * each endpoint has exactly one resource identifier.
 */
export function parseGatewayResource(value: string): GatewayResource | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const match = ENDPOINT.exec(url.pathname);
  if (!match) return null;
  let workspaceSlug: string;
  let serverName: string | null;
  try {
    workspaceSlug = decodeURIComponent(match[1]!);
    serverName = match[2] === undefined ? null : decodeURIComponent(match[2]);
  } catch {
    return null;
  }
  const canonical = gatewayResourceUrl(url.origin, workspaceSlug, serverName);
  if (canonical !== value || !workspaceSlug || serverName === "") return null;
  return { url: canonical, origin: url.origin, workspaceSlug, serverName };
}

/**
 * Whether a token issued for `granted` may be used at `requested`: the same endpoint, or
 * `granted` is the aggregated endpoint of the workspace whose server `requested` is.
 */
export function resourceCovers(granted: string, requested: string): boolean {
  if (granted === requested) return true;
  const g = parseGatewayResource(granted);
  const r = parseGatewayResource(requested);
  return !!g && !!r && g.serverName === null && g.origin === r.origin && g.workspaceSlug === r.workspaceSlug;
}

/** Where the endpoint's Protected Resource Metadata is served (RFC 9728 §3.1: the path-aware form). */
export function protectedResourceMetadataUrl(resourceUrl: string): string {
  const url = new URL(resourceUrl);
  return `${url.origin}${PRM_PREFIX}${url.pathname}`;
}

/** The endpoint a Protected Resource Metadata path is about, or null (`pathname` as requested, not decoded). */
export function resourceOfMetadataPath(origin: string, pathname: string): GatewayResource | null {
  return pathname.startsWith(`${PRM_PREFIX}/`) ? parseGatewayResource(`${origin}${pathname.slice(PRM_PREFIX.length)}`) : null;
}

/**
 * The `WWW-Authenticate` value of a gateway endpoint's 401 (RFC 6750 §3, RFC 9728 §5.1): where to
 * discover the authorization server and which scopes to ask for.
 */
export function gatewayChallenge(resourceUrl: string, error?: "invalid_token" | "insufficient_scope"): string {
  const parts = [`resource_metadata="${protectedResourceMetadataUrl(resourceUrl)}"`, `scope="${GATEWAY_SCOPES.join(" ")}"`];
  if (error) parts.push(`error="${error}"`);
  return `Bearer ${parts.join(", ")}`;
}
