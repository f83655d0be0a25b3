import type { IncomingHttpHeaders } from "node:http";
import { isIPv6 } from "node:net";

// Loaded by lib/start's graph (outside Next's bundles): nothing here may import "server-only".

/**
 * The one reading of which route a request names, made in the request front (lib/start/front.ts) before either pipeline (Next's
 * or lib/api/bearer-routes.ts) sees it: the path comes from the request line alone and must be
 * written one way only, and `Host` must be a host, so that the URL a handler is given
 * (`http://${host}${path}`) has exactly the path the router matched. The role gate reads the
 * path from that URL; a path that could be read two ways would let it judge another route than
 * the one whose handler runs (issue 24: `Host: 127.0.0.1:3000/api/v1/me?`).
 */
export function refusedTarget(url: string | undefined, headers: IncomingHttpHeaders, trustProxy: boolean): string | null {
  const target = url ?? "/";
  // Absolute-form ("http://x/…"), authority-form and "//x/…" (a scheme-relative URL to a parser).
  if (!target.startsWith("/") || target.startsWith("//")) return "The request target must be a path (origin-form, starting with a single /)";
  if (target.includes("#")) return "The request target holds a fragment (#)";
  const path = target.split("?")[0]!;
  // RFC 3986 path characters only: a URL parser would escape any other, giving the gate another string than the router.
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(path)) return "The request path holds a character that must be percent-encoded";
  const segments = path.split("/").slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "." || segment === "..") return "The request path holds a dot segment (/./ or /../)";
    if (segment === "" && i < segments.length - 1) return "The request path holds an empty segment (//)";
    const escape = segment.match(NON_CANONICAL_ESCAPE);
    if (escape) return `The request path escapes a character that must be written as itself (${escape[0]})`;
    if (!decodable(segment)) return "The request path is not valid percent-encoded UTF-8";
  }
  if (headers.host !== undefined && !isHost(headers.host)) return "The Host header is not a host name or address with an optional port";
  const forwarded = headers["x-forwarded-host"];
  if (trustProxy && forwarded !== undefined && !String(forwarded).split(",").every((h) => isHost(h.trim()))) {
    return "The X-Forwarded-Host header is not a host name or address with an optional port";
  }
  return null;
}

// Escapes of unreserved characters (RFC 3986 §2.3: "%61udit" is "audit" to a decoding router, not
// to the gate). An escaped "/" stays: every router here splits the path before decoding a
// parameter (Next, lib/api/bearer-routes.ts, lib/core/access), and ids such as an OAuth client's
// metadata-document URL need it.
const NON_CANONICAL_ESCAPE = /%(?:2[dDeE]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/;

// A DNS name, IPv4 address or bracketed IPv6 literal, and a port: nothing a URL parser would read
// as a path, query, fragment or user, or refuse.
const NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/;
function isHost(value: string): boolean {
  const [, name, port] = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(value) ?? [];
  if (name === undefined || (port !== undefined && Number(port) > 65535)) return false;
  // A name the URL parser refuses ("a.0" ends like an IPv4 address and is not one) would throw in every handler.
  return (name.startsWith("[") ? isIPv6(name.slice(1, -1)) : NAME.test(name)) && URL.canParse(`http://${value}/`);
}

function decodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** How many body bytes a request may declare before anything reads it; null: the route caps its own stream. */
export function declaredBodyCap(pathname: string): number | null {
  // The API (lib/api/route.ts parseBody) and the gateway (lib/gateway/http.ts) read bodies through a cap of their own.
  if (pathname.startsWith("/api/v1/") || pathname.startsWith("/mcp/")) return null;
  // Sign-in, sign-up, the OAuth provider's endpoints, pages: small forms and JSON.
  return OTHER_BODY_BYTES;
}

/** The cap of bodies outside the API and the gateway (better-auth's /api/auth/*, pages). */
const OTHER_BODY_BYTES = 1024 * 1024;

/** Headers by which a proxy says it forwarded a request. */
export const FORWARDING_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "forwarded", "x-real-ip"];
/** Set by the request front (lib/start/front.ts) to the forwarding headers the request arrived with (Next adds X-Forwarded-* of its own later); lib/identity/auth/server.ts reads it. */
export const FORWARDED_HEADER = "x-switchboard-forwarded";
