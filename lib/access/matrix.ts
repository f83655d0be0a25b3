import type { Access } from "./index";

/**
 * The role matrix: the least role each API route needs, keyed "METHOD /path" with `:param`
 * segments. The one route wrapper (lib/api/route.ts) looks every request up here and refuses
 * what is missing, so a new route cannot ship unguarded; tests enumerate app/api and check
 * both directions. docs/api.md ("Roles") shows the same table. Rules that depend on *whose*
 * object it is ("members revoke their own agents, admins anybody's") are checked by the
 * service after this gate.
 */
export const ROUTE_ACCESS: Record<string, Access> = {
  // set-up, pairing and the agent's own endpoint authenticate by other means
  "GET /api/v1/setup": "public",
  "POST /api/v1/setup": "public",
  "POST /api/v1/agents/pair": "public",
  "GET /api/v1/agents/self": "public",
  "DELETE /api/v1/agents/self": "public",
  // invitations are opened by people without an account yet; the token is the credential
  "POST /api/v1/invitations/preview": "public",
  "POST /api/v1/invitations/accept": "public",
  // the browser back from an OAuth authorization server: state bound to the signed-in user is the credential
  "GET /api/v1/oauth/callback": "public",
  // public share links: the unguessable token is the credential
  "GET /api/v1/public/shares/:token": "public",

  "GET /api/v1/me": "viewer",
  "PATCH /api/v1/me": "viewer",
  "POST /api/v1/workspaces": "viewer",
  "GET /api/v1/workspace": "viewer",
  "PATCH /api/v1/workspace": "admin",
  "DELETE /api/v1/workspace": "owner",

  "GET /api/v1/members": "viewer",
  "PATCH /api/v1/members/:userId": "admin",
  "DELETE /api/v1/members/:userId": "admin",
  "POST /api/v1/members/leave": "viewer",
  "POST /api/v1/members/transfer": "owner",
  "GET /api/v1/invitations": "admin",
  "POST /api/v1/invitations": "admin",
  "DELETE /api/v1/invitations/:id": "admin",

  "GET /api/v1/audit": "admin",
  "GET /api/v1/audit/export": "admin",

  "GET /api/v1/tokens": "viewer",
  "POST /api/v1/tokens": "viewer",
  "DELETE /api/v1/tokens/:id": "viewer",

  "GET /api/v1/events": "viewer",
  "GET /api/v1/icons": "viewer",

  "GET /api/v1/servers": "viewer",
  "POST /api/v1/servers": "admin",
  "POST /api/v1/servers/import": "admin",
  "POST /api/v1/servers/demo": "admin",
  "GET /api/v1/servers/export": "viewer",
  "GET /api/v1/servers/:id": "viewer",
  "PATCH /api/v1/servers/:id": "admin",
  "DELETE /api/v1/servers/:id": "admin",
  "POST /api/v1/servers/:id/restore": "admin",
  "POST /api/v1/servers/:id/purge": "admin",
  "PUT /api/v1/servers/:id/agent": "admin",
  "GET /api/v1/servers/:id/:kind": "viewer",
  "GET /api/v1/servers/:id/sessions": "viewer",
  "GET /api/v1/servers/:id/exposure": "viewer",
  "PUT /api/v1/servers/:id/exposure": "admin",
  "GET /api/v1/servers/:id/gateway/clients": "member",
  "DELETE /api/v1/servers/:id/gateway/clients/:clientId": "admin",
  "GET /api/v1/servers/:id/tasks": "viewer",
  "GET /api/v1/servers/:id/resources/subscriptions": "viewer",
  "GET /api/v1/servers/:id/oauth": "viewer",
  "POST /api/v1/servers/:id/oauth/authorize": "member",
  "DELETE /api/v1/servers/:id/oauth": "member",
  "POST /api/v1/servers/:id/oauth/checks": "member",
  "GET /api/v1/servers/:id/oauth/trace": "viewer",
  "POST /api/v1/servers/:id/connect": "member",
  "POST /api/v1/servers/:id/disconnect": "member",
  "POST /api/v1/servers/:id/ping": "member",
  "POST /api/v1/servers/:id/log-level": "member",
  "POST /api/v1/servers/:id/complete": "member",
  "POST /api/v1/servers/:id/tools/call": "member",
  "POST /api/v1/servers/:id/resources/read": "member",
  "POST /api/v1/servers/:id/resources/subscribe": "member",
  "POST /api/v1/servers/:id/resources/unsubscribe": "member",
  "POST /api/v1/servers/:id/prompts/get": "member",

  "GET /api/v1/sessions/:id/events": "viewer",
  "GET /api/v1/sessions/:id/logs": "viewer",
  "GET /api/v1/sessions/:id/traffic": "viewer",

  "GET /api/v1/calls": "viewer",
  "GET /api/v1/calls/export": "viewer",
  "GET /api/v1/stats": "viewer",
  "POST /api/v1/calls/cancel": "member",
  "GET /api/v1/calls/:id": "viewer",
  "POST /api/v1/calls/:id/rerun": "member",
  "POST /api/v1/calls/:id/task/cancel": "member",
  "GET /api/v1/calls/:id/app": "viewer",
  "POST /api/v1/calls/:id/app/tools/call": "member",
  "POST /api/v1/calls/:id/app/resources/read": "member",
  "GET /api/v1/calls/:id/shares": "viewer",
  "POST /api/v1/calls/:id/shares": "member",
  "GET /api/v1/calls/:id/share-preview": "member",
  "GET /api/v1/shares": "member",
  "DELETE /api/v1/shares/:id": "member",
  "GET /api/v1/calls/:id/notes": "viewer",
  "POST /api/v1/calls/:id/notes": "member",
  "PATCH /api/v1/notes/:id": "member",
  "DELETE /api/v1/notes/:id": "member",
  "PUT /api/v1/calls/:id/tags": "member",
  "PUT /api/v1/calls/:id/star": "viewer",
  "DELETE /api/v1/calls/:id/star": "viewer",
  "GET /api/v1/tags": "viewer",
  "GET /api/v1/views": "viewer",
  "POST /api/v1/views": "member",
  "DELETE /api/v1/views/:id": "member",

  "GET /api/v1/interactions": "viewer",
  "GET /api/v1/interactions/:id": "viewer",
  "POST /api/v1/interactions/:id/respond": "member",

  "GET /api/v1/agents": "viewer",
  "GET /api/v1/agents/:id": "viewer",
  "DELETE /api/v1/agents/:id": "member",
  "POST /api/v1/agents/pairings": "member",
};

interface Compiled {
  key: string;
  method: string;
  segments: string[];
  access: Access;
}

// Literal segments beat parameters: "/servers/export" is not "/servers/:id".
const compiled: Compiled[] = Object.entries(ROUTE_ACCESS)
  .map(([key, access]) => {
    const [method, path] = key.split(" ");
    return { key, method, segments: path.split("/").slice(1), access };
  })
  .sort((a, b) => specificity(b.segments) - specificity(a.segments));

function specificity(segments: string[]): number {
  return segments.reduce((n, s, i) => n + (s.startsWith(":") ? 0 : 2 ** (20 - i)), 0);
}

/**
 * Paths outside /api/v1 that next.config.js rewrites to an API route. A route handler reached
 * through a rewrite sees the original URL, so the entry of the route it was rewritten to applies.
 */
export const REWRITTEN_PATHS: Record<string, string> = {
  "/s/:token": "/api/v1/public/shares/:token",
};

/** The matrix entry for a request, or undefined when the route is not in the matrix. */
export function accessFor(method: string, pathname: string): { key: string; access: Access } | undefined {
  const segments = pathname.replace(/\/+$/, "").split("/").slice(1);
  const wanted = method === "HEAD" ? "GET" : method;
  for (const entry of compiled) {
    if (entry.method !== wanted || entry.segments.length !== segments.length) continue;
    if (entry.segments.every((s, i) => s.startsWith(":") || s === segments[i])) return { key: entry.key, access: entry.access };
  }
  const rewritten = rewrite(segments);
  return rewritten === undefined ? undefined : accessFor(method, rewritten);
}

function rewrite(segments: string[]): string | undefined {
  for (const [source, destination] of Object.entries(REWRITTEN_PATHS)) {
    const pattern = source.split("/").slice(1);
    if (pattern.length !== segments.length || !pattern.every((s, i) => s.startsWith(":") || s === segments[i])) continue;
    const params = new Map(pattern.map((s, i) => [s, segments[i]!]));
    return destination.replace(/:\w+/g, (name) => params.get(name) ?? name);
  }
  return undefined;
}

/** "POST /api/v1/servers/:id" for a route file's folder path ("servers/[id]") and method. */
export function routeKey(method: string, folder: string): string {
  const path = folder
    .split("/")
    .map((s) => s.replace(/^\[(.+)\]$/, ":$1"))
    .join("/");
  return `${method} /api/v1/${path}`;
}
