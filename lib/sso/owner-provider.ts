import "server-only";
import { createHmac, randomUUID } from "node:crypto";
import { discoverOIDCConfig } from "@better-auth/sso";
import { operatorTrustedOrigins, type Principal } from "@/lib/access";
import { audit } from "@/lib/audit/server";
import { derivedSecret } from "@/lib/crypto";
import { notFound, SwitchboardError } from "@/lib/errors";
import { resolveTxt } from "./dns";
import type { WorkspaceProviderDto } from "./index";
import { operatorProviders } from "./provider";
import type { RegisterSsoProvider } from "./schemas";
import * as q from "./queries";
import { sealOidcConfig } from "./sealed-config";

/** The DNS name whose TXT record proves a workspace holds `domain`. */
export const challengeName = (domain: string) => `_switchboard-challenge.${domain}`;

/** The record's value: derived from the console's secret, so it needs no storage and nobody else can compute it. */
function challengeValue(row: { providerId: string; domain: string; createdAt: Date }): string {
  return `switchboard-verification=${createHmac("sha256", derivedSecret("sso-domain")).update(`${row.providerId}\n${row.domain}\n${row.createdAt.getTime()}`).digest("base64url")}`;
}

/** SWITCHBOARD_TRUSTED_ORIGINS admits an IdP on a private address; any other must be public HTTPS. */
function fetchable(url: string): boolean {
  const u = new URL(url);
  if (operatorTrustedOrigins().includes(u.origin)) return true;
  const host = u.hostname.replace(/^\[|\]$/g, "");
  return u.protocol === "https:" && host !== "localhost" && !/^[\d.]+$/.test(host) && !host.includes(":");
}

export function toProviderDto(row: q.SsoProviderRow, origin: string): WorkspaceProviderDto {
  const config = JSON.parse(row.oidcConfig ?? "{}") as { name?: string };
  return {
    providerId: row.providerId,
    source: "workspace",
    name: config.name ?? row.domain,
    issuer: row.issuer,
    domain: row.domain,
    state: row.domainVerified ? "active" : "pending",
    redirectUri: `${origin}/api/auth/sso/callback/${row.providerId}`,
    verification: row.domainVerified ? null : { type: "TXT", name: challengeName(row.domain), value: challengeValue(row) },
  };
}

/** `POST /api/v1/workspace/sso/provider` (owner): the workspace's own OIDC IdP, inactive until its domain is verified. */
export async function registerWorkspaceProvider(principal: Principal, input: RegisterSsoProvider, origin: string): Promise<WorkspaceProviderDto> {
  const domain = input.domain.toLowerCase();
  if (await q.findWorkspaceProvider({ workspaceId: principal.workspaceId })) throw new SwitchboardError("conflict", "This workspace already has an identity provider: remove it first");
  if (operatorProviders().some((p) => p.domain.toLowerCase() === domain) || (await q.findProviderByDomain({ domain }))) {
    throw new SwitchboardError("conflict", `The domain ${domain} is already claimed by another identity provider`);
  }
  const issuer = input.issuer.replace(/\/+$/, "");
  if (!fetchable(issuer)) throw new SwitchboardError("bad_request", "The issuer must be a public https:// URL (an internal IdP's origin goes in SWITCHBOARD_TRUSTED_ORIGINS)");
  let discovered;
  try {
    discovered = await discoverOIDCConfig({ issuer, isTrustedOrigin: fetchable });
  } catch (err) {
    throw new SwitchboardError("upstream_error", `The identity provider's configuration (${issuer}/.well-known/openid-configuration) could not be read: ${(err as Error).message}`);
  }
  const oidcConfig = {
    name: input.name,
    issuer: discovered.issuer,
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    authorizationEndpoint: discovered.authorizationEndpoint,
    tokenEndpoint: discovered.tokenEndpoint,
    tokenEndpointAuthentication: discovered.tokenEndpointAuthentication ?? "client_secret_basic",
    jwksEndpoint: discovered.jwksEndpoint,
    userInfoEndpoint: discovered.userInfoEndpoint,
    discoveryEndpoint: discovered.discoveryEndpoint,
    pkce: true,
    scopes: ["openid", "email", "profile", "offline_access"],
    overrideUserInfo: false,
  };
  const providerId = domain.replace(/[^a-z0-9]+/g, "-");
  let row;
  try {
    row = await q.createWorkspaceProvider({ id: randomUUID(), providerId, issuer: discovered.issuer, domain, workspaceId: principal.workspaceId, userId: principal.userId, oidcConfig: sealOidcConfig(oidcConfig) });
  } catch {
    throw new SwitchboardError("conflict", `The domain ${domain} is already claimed by another identity provider`);
  }
  await audit(principal, { action: "workspace.sso_provider_added", target: { type: "workspace", id: principal.workspaceId }, details: { issuer: row.issuer, domain } });
  return toProviderDto(row, origin);
}

/** `POST /api/v1/workspace/sso/provider/verify` (owner): looks up the TXT record; the provider is active once it matches. */
export async function verifyWorkspaceProvider(principal: Principal, origin: string): Promise<WorkspaceProviderDto> {
  const row = await q.findWorkspaceProvider({ workspaceId: principal.workspaceId });
  if (!row) throw notFound("Identity provider");
  if (row.domainVerified) return toProviderDto(row, origin);
  const expected = challengeValue(row);
  let records: string[];
  try {
    records = await resolveTxt(challengeName(row.domain));
  } catch (err) {
    throw new SwitchboardError("upstream_error", `DNS could not be asked for ${challengeName(row.domain)}: ${(err as Error).message}`);
  }
  if (!records.some((r) => r.trim() === expected)) {
    throw new SwitchboardError("unprocessable", `No TXT record ${challengeName(row.domain)} with the value ${expected} was found (${records.length} other record(s)); DNS changes can take a while to appear`);
  }
  const verified = await q.markProviderVerified({ id: row.id });
  await audit(principal, { action: "workspace.sso_domain_verified", target: { type: "workspace", id: principal.workspaceId }, details: { domain: row.domain } });
  return toProviderDto(verified, origin);
}

/** `DELETE /api/v1/workspace/sso/provider` (owner). Requiring SSO ends with it unless the operator's IdP serves the workspace. */
export async function removeWorkspaceProvider(principal: Principal): Promise<{ deleted: boolean }> {
  const row = await q.findWorkspaceProvider({ workspaceId: principal.workspaceId });
  if (!row) throw notFound("Identity provider");
  const operator = operatorProviders()[0];
  const operatorServes = operator ? (await q.findSsoWorkspace({ slug: operator.workspace }))?.id === principal.workspaceId : false;
  await q.deleteWorkspaceProvider({ id: row.id, workspaceId: principal.workspaceId, keepRequired: operatorServes });
  await audit(principal, { action: "workspace.sso_provider_removed", target: { type: "workspace", id: principal.workspaceId }, details: { issuer: row.issuer, domain: row.domain } });
  return { deleted: true };
}
