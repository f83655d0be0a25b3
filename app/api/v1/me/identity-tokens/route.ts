import { parseBody, withWorkspace } from "@/lib/api/route";
import { SaveIdentityTokenSchema } from "@/lib/identity/sso/schemas";
import { forgetIdentityTokens, listIdentityTokens, saveIdentityToken } from "@/lib/identity/sso/server";

export const runtime = "nodejs";

// GET /api/v1/me/identity-tokens – the caller's ID tokens from enterprise IdPs, by issuer and expiry (never the tokens)
export const GET = withWorkspace(async ({ principal }) => listIdentityTokens(principal));

// PUT /api/v1/me/identity-tokens – hand over an ID token the caller holds from an IdP, for enterprise-managed servers
export const PUT = withWorkspace(async ({ request, principal }) => saveIdentityToken(principal, await parseBody(request, SaveIdentityTokenSchema)));

// DELETE /api/v1/me/identity-tokens – forget the caller's ID tokens
export const DELETE = withWorkspace(async ({ principal }) => forgetIdentityTokens(principal));
