import { NextResponse, type NextRequest } from "next/server";
import { shareState } from "@/lib/domains/shares/server";
import { THEME_COOKIE } from "@/lib/team/workspaces";
import { signedInTheme } from "@/lib/team/workspaces/server";

/**
 * Two things a prerendered page cannot do for itself:
 * - A share link's page (one prerendered shell) gets its 410 (revoked, expired) or 404 (unknown)
 *   here when Next serves it: the status set on `next()` stays on the response Next renders (the
 *   page asks the public API why). Not a rewrite to the same URL: Next would proxy that as an
 *   external URL when the host differs. In production the console answers page loads of links
 *   before Next (lib/domains/shares/page-front.ts); HEAD and RSC requests still come here. JSON
 *   requests for a link are rewritten to the public API by next.config.js and skip this.
 * - Every other page load carries the signed-in person's saved theme in the `sb-theme` cookie,
 *   which the root layout's fixed script applies before the first paint.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith("/s/")) {
    const share = await shareState(pathname.split("/")[2] ?? "");
    return share.state === "active" ? NextResponse.next() : NextResponse.next({ status: share.state === "gone" ? 410 : 404 });
  }
  const response = NextResponse.next();
  // Prerendered pages would say s-maxage=31536000: a shared cache in front must neither keep one
  // person's theme cookie for others nor hold the HTML past a new build, as when pages were dynamic.
  response.headers.set("cache-control", "private, no-cache, no-store, max-age=0, must-revalidate");
  const theme = await signedInTheme(request.headers);
  if (theme) response.cookies.set(THEME_COOKIE, theme, { path: "/", sameSite: "lax" });
  else if (request.cookies.has(THEME_COOKIE)) response.cookies.delete(THEME_COOKIE);
  return response;
}

export const config = {
  matcher: [
    { source: "/s/:token", missing: [{ type: "header", key: "accept", value: ".*application/json.*" }] },
    // Page loads only: not the API, the gateway's MCP endpoints, other route handlers, Next's files,
    // or client navigations (RSC requests) within a loaded page.
    { source: "/((?!api/|mcp/|scim/|oauth/|_next/|s/|icon\\.svg|favicon\\.ico).*)", missing: [{ type: "header", key: "rsc" }] },
    // The one page under /oauth/ (the rest are route handlers), prerendered since issue 41.
    { source: "/oauth/consent", missing: [{ type: "header", key: "rsc" }] },
  ],
};
