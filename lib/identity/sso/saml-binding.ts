import "server-only";
import { createAuthMiddleware } from "better-auth/api";

/** The SAML assertion consumer service the plugin serves per provider. */
export const ACS = "/sso/saml2/sp/acs/:providerId";
// The field of the console's own same-site re-post (below): its absence lets the page be sent once.
const REPOSTED = "sb_reposted";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page that posts the IdP's answer again, from the console's own origin: the IdP's form post
 * is cross-site, so the browser leaves out the console's SameSite=Lax cookies, among them the one
 * that says which sign-in this browser started; the same-site post carries it.
 */
function repostPage(action: string, fields: Record<string, string>): Response {
  const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join("");
  const html = `<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="POST" action="${escape(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form></body></html>`;
  return new Response(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/**
 * A SAML response is accepted only with the RelayState of a sign-in this browser started: the
 * plugin sets it, signed, in its `relay_state` cookie at the start, and checks InResponseTo
 * (unsolicited, IdP-initiated responses are refused there) but not that cookie, which a
 * cross-site post does not carry. Without this, someone could post their own valid response into
 * another person's browser and sign them in as themselves.
 */
export const samlBindingHook = {
  matcher: (ctx: { path?: string }) => ctx.path === ACS,
  handler: createAuthMiddleware(async (ctx) => {
    const body = (ctx.body ?? {}) as { SAMLResponse?: unknown; RelayState?: unknown; [REPOSTED]?: unknown };
    if (ctx.request?.method !== "POST" || typeof body.SAMLResponse !== "string") return;
    const refuse = (why: string): never => {
      throw ctx.redirect(`/sign-in?${new URLSearchParams({ error: "saml_response_not_started_here", error_description: why })}`);
    };
    if (typeof body.RelayState !== "string" || !body.RelayState) return refuse("The identity provider's answer names no sign-in started at this console");
    const started = await ctx.getSignedCookie(ctx.context.createAuthCookie("relay_state").name, ctx.context.secret);
    if (started === body.RelayState) return;
    if (!started && body[REPOSTED] === undefined) {
      return repostPage(new URL(ctx.request.url).pathname, { SAMLResponse: body.SAMLResponse, RelayState: body.RelayState, [REPOSTED]: "1" });
    }
    return refuse("The identity provider's answer belongs to a sign-in started in another browser");
  }),
};
