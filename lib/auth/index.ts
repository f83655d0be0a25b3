import { z } from "zod";
import { TokenScopeSchema, TokenScopesSchema, type Role, type TokenScope, type TokenScopeName } from "@/lib/access";

/** Where a request came from, for the audit log. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The authenticated caller of an API route. */
export interface Principal {
  userId: string;
  userName: string;
  workspaceId: string;
  /** The role this request acts with (a read-only token caps it at viewer). */
  role: Role;
  /** The member's own role in the workspace. */
  memberRole: Role;
  via: "session" | "token";
  tokenId?: string;
  /** A token's API scope (absent for a gateway-only token). */
  tokenScope?: TokenScope;
  /** Whether the token opens the MCP gateway endpoints (lib/gateway). */
  tokenGateway?: boolean;
  client: ClientInfo;
}

export const SetupSchema = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.email().max(200),
  password: z.string().min(8).max(128),
  workspaceName: z.string().trim().min(1).max(100).default("Default"),
  /** The one-time code from the console's log; needed unless set-up comes from this machine. */
  setupCode: z.string().trim().max(40).optional(),
});
export type Setup = z.infer<typeof SetupSchema>;

export const CreateTokenSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    /** "read": the token can only read, whatever its creator's role. */
    scope: TokenScopeSchema.optional(),
    /** Instead of scope: any of "full" | "read" and "gateway" (the MCP endpoints under /mcp). */
    scopes: TokenScopesSchema.optional(),
  })
  .refine((body) => !(body.scope && body.scopes), { message: "Send scope or scopes, not both" })
  .transform(({ name, scope, scopes }) => ({ name, scopes: scopes ?? [scope ?? "full"] }));
export type CreateToken = z.infer<typeof CreateTokenSchema>;

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
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const trustProxy = process.env.SWITCHBOARD_TRUST_PROXY === "1";
  const forwarded = (name: string) => (trustProxy ? request.headers.get(name)?.split(",")[0]?.trim() : undefined);
  const host = forwarded("x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  const proto = forwarded("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}

/** The console's public origin for links it hands out: SWITCHBOARD_URL if set, else the request's. */
export function consoleOrigin(request: Request): string {
  return process.env.SWITCHBOARD_URL ? new URL(process.env.SWITCHBOARD_URL).origin : requestOrigin(request);
}

export {
  GATEWAY_SCOPE,
  GATEWAY_SCOPES,
  OFFLINE_ACCESS_SCOPE,
  gatewayChallenge,
  gatewayResourceUrl,
  parseGatewayResource,
  protectedResourceMetadataUrl,
  resourceCovers,
  resourceOfMetadataPath,
  type GatewayResource,
} from "./gateway-resource";
