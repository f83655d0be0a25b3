import { ROUTE_TABLE, type ApiRouteKey } from "./table.generated";

// Loaded by both module graphs and by scripts: plain data and functions, no "server-only".

export type { ApiRouteKey };
type RouteEntry = (typeof ROUTE_TABLE)[number];

/**
 * The one reading of "which route file serves this path", over the table generated from app/api
 * and app/mcp (scripts/routes.ts) in Next's order. The direct pipeline routes by it and the role
 * gate judges by it, so they cannot disagree; Next routes from the same files.
 */
export function matchRoute(pathname: string): { route: RouteEntry; params: Record<string, string> } | null {
  // No trailing slash is stripped: Next redirects such a path, and so it names no route here.
  const parts = pathname.split("/").slice(1);
  for (const { route, segments } of COMPILED) {
    const params = matchSegments(segments, parts);
    if (params) return { route, params };
  }
  return null;
}

/** The route's params when `parts` (a path's segments) fit `pattern` ("/api/v1/calls/:id"); a catch-all never fits here. */
export function matchPattern(pattern: string, parts: string[]): Record<string, string> | null {
  return matchSegments(pattern.split("/").slice(1), parts);
}

// Every request is routed (twice: the pipeline, then the role gate): the patterns are split once.
const COMPILED = ROUTE_TABLE.map((route) => ({ route, segments: route.pattern.split("/").slice(1) }));

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  // The literal segments first: most routes are ruled out without decoding or allocating.
  for (let i = 0; i < parts.length; i++) {
    const segment = segments[i]!;
    if (segment[0] === "*") return null;
    if (segment[0] !== ":" && segment !== parts[i]) return null;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = segments[i]!;
    if (segment[0] !== ":") continue;
    const value = decoded(parts[i]!);
    if (value === "") return null;
    params[segment.slice(1)] = value;
  }
  return params;
}

/** The matrix key of a method on a route ("GET /api/v1/calls/:id"); HEAD is judged as GET. */
export function routeKeyOf(method: string, route: RouteEntry): string {
  return `${method === "HEAD" ? "GET" : method} ${route.pattern}`;
}

// A malformed escape ("%E0") matches nothing: Next answers it.
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "";
  }
}
