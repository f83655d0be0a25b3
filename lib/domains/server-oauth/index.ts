import type { OAuthTrace, SignInRequired } from "@/lib/mcp";

/**
 * Whose credential calls to a server use: none, each member's own, one shared by the workspace,
 * the console's own client credentials (machine to machine: no person signs in), or the member's
 * enterprise identity (SEP-990: their IdP ID token exchanged for an ID-JAG, no consent screen).
 */
export const AUTH_MODES = ["none", "oauth-per-member", "oauth-shared", "oauth-machine", "enterprise-managed"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Modes where each member has their own credential, hence their own live session. */
export function isPerMemberMode(mode: string): boolean {
  return mode === "oauth-per-member" || mode === "enterprise-managed";
}

/**
 * How a machine client gets its tokens: client_credentials authenticated with a secret (RFC 6749
 * §2.3) or a private key JWT (RFC 7523 §2.2), or a JWT bearer grant with a platform-issued
 * assertion (RFC 7523 §2.1, workload identity).
 */
export const CLIENT_AUTHS = ["client_secret_basic", "client_secret_post", "private_key_jwt", "jwt_bearer"] as const;
export type ClientAuth = (typeof CLIENT_AUTHS)[number];
/** Signing algorithms accepted for private_key_jwt. */
export const KEY_ALGS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"] as const;

/** The subject of the shared workspace credential (per-member credentials use the user id). */
export const SHARED_SUBJECT = "workspace";

/** `GET /api/v1/servers/:id/oauth`: the caller's view of the server's OAuth state; never tokens. */
export interface OAuthStatus {
  mode: AuthMode;
  signedIn: boolean;
  /** Who signed in (for the shared credential, the member who last did). */
  signedInBy: string | null;
  scope: string | null;
  expiresAt: string | null;
  issuer: string | null;
  /** Whether the server has a pre-registered client (the id only; the secret is write-only). */
  clientId: string | null;
}

/** Where the UI offers "Sign in": the details of an error that needs a person to sign in to the server (lib/mcp/failures.ts). */
export type { SignInRequired };

export function isSignInRequired(details: unknown): details is SignInRequired {
  const d = details as Partial<SignInRequired> | null;
  return !!d && (d.oauth === "sign_in_required" || d.oauth === "step_up_required") && typeof d.authorizeUrl === "string";
}

/**
 * The message of a connect or call refused for want of a person's sign-in (built by `signInRequired`
 * on the server). A session's stored error is text only; this is how a list that has no OAuth status
 * at hand still says "signed out" rather than "unreachable".
 */
export function signInMessage(serverName: string, mode: string): string {
  const whose = mode === "oauth-shared" ? "the workspace's shared sign-in" : "your own sign-in";
  return `"${serverName}" needs ${whose}: sign in to ${serverName} first`;
}

export const oauthKeys = {
  status: (serverId: string) => ["servers", serverId, "oauth"] as const,
};

export type { OAuthBody, OAuthExchange, OAuthParam, OAuthStep, OAuthStepId, OAuthStepStatus, OAuthTrace, OAuthTraceKind } from "@/lib/mcp";

/** `GET /api/v1/servers/:id/oauth/trace`: the server's last checks and the caller's last sign-in and refresh. */
export interface OAuthTraces {
  checks: OAuthTrace | null;
  signIn: OAuthTrace | null;
  refresh: OAuthTrace | null;
}

export const oauthTraceKeys = {
  traces: (serverId: string) => ["servers", serverId, "oauth", "trace"] as const,
};
