import "server-only";
import { decryptJson } from "@/lib/core/crypto";
import { SwitchboardError } from "@/lib/core/errors";
import { idpTokenEndpoint, type EnterpriseCredentials } from "@/lib/mcp/server";
import { outboundFetch } from "@/lib/core/net/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { currentIdToken } from "@/lib/identity/sso/server";
import type { AuthMode, OAuthStatus } from "./index";
import * as q from "./queries";

/**
 * Enterprise-managed authorization (SEP-990) for a connection as its acting member: the IdP and
 * authorization server clients from the server's settings, and the member's ID token from their
 * SSO sign-in (lib/identity/sso). Throws in plain words, before anything is sent, when the member has none.
 */
export async function connectionEnterprise(server: ServerSecretRow): Promise<EnterpriseCredentials | undefined> {
  if (server.authMode !== "enterprise-managed" || server.kind !== "http") return undefined;
  const { idpIssuer, idpClientId, oauthClientId, oauthClientSecret } = server;
  if (!idpIssuer || !idpClientId || !oauthClientId || !oauthClientSecret) {
    throw new SwitchboardError("unprocessable", `"${server.name}" is not fully set up for enterprise-managed authorization; an admin can enter the identity provider and client in its settings`);
  }
  const userId = server.actingUserId;
  if (!userId) throw new SwitchboardError("unprocessable", `"${server.name}" uses each member's own identity: work nobody started cannot reach it`);
  const identity = { userId, issuer: idpIssuer, serverName: server.name };
  await currentIdToken(identity);
  return {
    idpIssuer,
    ...(server.idpTokenEndpoint ? { idpTokenEndpoint: server.idpTokenEndpoint } : {}),
    idpClientId,
    ...(server.idpClientSecret ? { idpClientSecret: decryptJson<string>(server.idpClientSecret) } : {}),
    clientId: oauthClientId,
    clientSecret: decryptJson<string>(oauthClientSecret),
    ...(server.oauthIssuer ? { expectedIssuer: server.oauthIssuer } : {}),
    idToken: () => currentIdToken(identity),
    fetch: outboundFetch({ workspaceId: server.workspaceId }),
  };
}

/**
 * On saving an enterprise-managed server (422): an IdP token endpoint, when one is given, must be
 * the one the issuer's metadata names, read under the workspace's outbound policy. Members' ID
 * tokens are sent there; any other URL would hand them to whoever runs it.
 */
export async function assertIdpTokenEndpoint({ workspaceId, idpIssuer, idpTokenEndpoint: configured }: { workspaceId: string; idpIssuer: string | null; idpTokenEndpoint: string | null }): Promise<void> {
  if (!configured) return;
  if (!idpIssuer) throw new SwitchboardError("unprocessable", "An IdP token endpoint needs its IdP issuer: the endpoint must be the one the issuer's metadata names", { field: "idpTokenEndpoint" });
  await idpTokenEndpoint({ issuer: idpIssuer, configured, fetch: outboundFetch({ workspaceId }) });
}

/** `GET /servers/:id/oauth` for an enterprise-managed server: "signed in" is the caller's sign-in with the IdP. */
export async function enterpriseStatus(server: ServerSecretRow, userId: string): Promise<OAuthStatus> {
  const row = server.idpIssuer ? await q.findIdentityExpiry({ userId, issuer: server.idpIssuer }) : null;
  const live = !!row && (!row.expiresAt || row.expiresAt.getTime() > Date.now());
  const user = live ? await q.findUserName({ id: userId }) : null;
  return {
    mode: server.authMode as AuthMode,
    signedIn: live,
    signedInBy: user?.name ?? null,
    scope: server.oauthScope ?? null,
    expiresAt: row?.expiresAt?.toISOString() ?? null,
    issuer: server.idpIssuer,
    clientId: server.oauthClientId,
  };
}
