import { config } from "@/lib/core/config";
import type { RequestHead, TokenScope, TokenScopeName } from "@/lib/core/access";
export type { ClientInfo, Principal, RequestHead } from "@/lib/core/access";
export type { Setup, CreateToken } from "./schemas";

export interface ApiTokenInfo {
  id: string;
  name: string;
  prefix: string;
  /** The API scope, or null for a gateway-only token. */
  scope: TokenScope | null;
  scopes: TokenScopeName[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/**
 * A same-origin path to go to after signing in, or null. Only paths starting with one "/" pass;
 * anything the URL parser would resolve elsewhere ("//host", "/\\host", "/\t/host") does not.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  // Browsers drop tabs and newlines and read a backslash as "/": refuse them anywhere.
  if (!next || !next.startsWith("/") || next.startsWith("//") || /[\u0000-\u001f\u007f\\]/.test(next)) return null;
  const base = "http://next.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  return url.origin === base && !url.pathname.startsWith("//") ? `${url.pathname}${url.search}${url.hash}` : null;
}

export const authKeys = {
  me: () => ["me"] as const,
  tokens: () => ["tokens"] as const,
};

/**
 * The origin a request was addressed to. `X-Forwarded-Host`/`-Proto` are anybody's to send, so
 * they count only behind a proxy the operator vouches for (`SWITCHBOARD_TRUST_PROXY=1`).
 */
export function requestOrigin(request: RequestHead): string {
  const url = new URL(request.url);
  const { trustProxy } = config();
  const forwarded = (name: string) => (trustProxy ? request.headers.get(name)?.split(",")[0]?.trim() : undefined);
  const host = forwarded("x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  const proto = forwarded("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/** The console's public origin for links it hands out: SWITCHBOARD_URL if set, else the request's. */
export function consoleOrigin(request: RequestHead): string {
  const configured = config().url;
  return configured ? new URL(configured).origin : requestOrigin(request);
}

export {
  GATEWAY_SCOPE,
  GATEWAY_SCOPES,
  gatewayChallenge,
  gatewayPath,
  gatewayResourceUrl,
  parseGatewayResource,
  protectedResourceMetadataUrl,
  resourceCovers,
  resourceOfMetadataPath,
} from "./gateway-resource";
