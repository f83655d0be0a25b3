import { NextResponse, type NextRequest } from "next/server";
import { shareState } from "@/lib/shares/server";

/**
 * A page cannot choose its HTTP status, so a revoked or expired share link's page gets its 410
 * here: the status set on `next()` stays on the response Next renders (the page says why).
 * Not a rewrite to the same URL: Next would proxy that as an external URL when the host differs.
 * JSON requests for a link are rewritten to the public API by next.config.js and skip this.
 */
export async function proxy(request: NextRequest) {
  const token = request.nextUrl.pathname.split("/")[2] ?? "";
  const share = await shareState(token);
  if (share.state === "gone") return NextResponse.next({ status: 410 });
  return NextResponse.next();
}

export const config = {
  matcher: [{ source: "/s/:token", missing: [{ type: "header", key: "accept", value: ".*application/json.*" }] }],
};
