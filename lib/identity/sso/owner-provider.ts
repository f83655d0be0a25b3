import "server-only";
import { createHmac, randomUUID } from "node:crypto";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { derivedSecret } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { discoverIdp, idpFetch } from "./discovery";
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
  // A pending claim blocks nobody: whoever publishes the TXT record first holds the domain.
  if (operatorProviders().some((p) => p.domain.toLowerCase() === domain) || (await q.findVerifiedProviderByDomain({ domain }))) {
    throw new SwitchboardError("conflict", `The domain ${domain} is already claimed by another identity provider`);
  }
  const issuer = input.issuer.replace(/\/+$/, "");
  // Through the workspace's outbound policy, as its MCP servers: the IdP is a URL its owner supplied.
  const discovered = await discoverIdp({ issuer, fetch: idpFetch({ workspaceId: principal.workspaceId, issuer }), workspaceId: principal.workspaceId });
  const oidcConfig = {
    name: input.name,
    ...discovered,
    clientId: input.clientId,
    clientSecret: input.clientSecret,
    pkce: true,
    scopes: ["openid", "email", "profile", "offline_access"],
    overrideUserInfo: false,
  };
  const slug = domain.replace(/[^a-z0-9]+/g, "-");
  const providerId = (await q.findProviderByProviderId({ providerId: slug })) ? `${slug}-${randomUUID().slice(0, 8)}` : slug;
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
  const verified = await q.markProviderVerified({ id: row.id, domain: row.domain });
  if (!verified) throw new SwitchboardError("conflict", `The domain ${row.domain} was verified first by another workspace's identity provider`);
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
