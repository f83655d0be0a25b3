/**
 * Single sign-on: people sign in to the console with their organisation's identity provider, and
 * the ID token that sign-in yields is what enterprise-managed servers exchange for access (SEP-990).
 */

/** `GET /api/v1/me/identity-tokens`: the caller's ID tokens, by issuer; never the tokens themselves. */
export interface IdentityTokenInfo {
  issuer: string;
  expiresAt: string | null;
  updatedAt: string;
}

export const ssoKeys = {
  identityTokens: () => ["me", "identity-tokens"] as const,
};

/** `GET /api/v1/sso`: what the sign-in page offers besides the password ("Sign in with <name>"). */
export interface SignInOptions {
  providers: { providerId: string; name: string }[];
}

/** `GET /api/v1/workspace/sso`: the workspace's single sign-on settings. */
export interface WorkspaceSsoDto {
  /** The identity provider whose first sign-ins join this workspace, or null. */
  provider: WorkspaceProviderDto | null;
  ssoRequired: boolean;
  ssoDefaultRole: "viewer" | "member" | "admin";
  /** How often (seconds) SSO users' console sessions are re-checked against the IdP. */
  recheckSeconds: number;
  /**
   * Who "require SSO" would lock out: members other than owners whose email is outside the
   * provider's domain and who never signed in with SSO (the IdP cannot sign them in, and their
   * password would be refused). Empty without a provider.
   */
  lockOut: SsoLockedOutMember[];
}

/** A member "require SSO" would lock out (`WorkspaceSsoDto.lockOut`). */
export interface SsoLockedOutMember {
  userId: string;
  name: string;
  email: string;
  role: string;
}

/** An identity provider of a workspace: the operator's (SWITCHBOARD_SSO_*) or one its owner registered. */
export interface WorkspaceProviderDto {
  providerId: string;
  source: "operator" | "workspace";
  name: string;
  issuer: string;
  domain: string;
  /** A workspace's own provider signs nobody in until its domain is verified. */
  state: "active" | "pending";
  /** The redirect URI to register at the IdP for the console's client. */
  redirectUri: string;
  /** The DNS record to publish while pending. */
  verification: { type: "TXT"; name: string; value: string } | null;
}

export const workspaceSsoKeys = {
  settings: () => ["workspace", "sso"] as const,
};
