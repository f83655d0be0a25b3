import { matchPattern, matchRoute, routeKeyOf, type ApiRouteKey } from "@/lib/core/routes";
import type { Access } from "./index";

/**
 * The role matrix: the least role each API route needs, keyed "METHOD /path" with `:param`
 * segments. Typed by the route table generated from app/api (lib/core/routes): a route file without
 * an entry here, or an entry without a route file, fails the type check and the build
 * (scripts/routes.ts). The one route wrapper (lib/api/route.ts) judges every request by it. docs/api.md ("Roles") shows the same table. Rules that depend on *whose*
 * object it is ("members revoke their own agents, admins anybody's") are checked by the
 * service after this gate.
 */
export const ROUTE_ACCESS: Record<ApiRouteKey, Access> = {
  // set-up, pairing and the agent's own endpoint authenticate by other means
  "GET /api/v1/setup": "public",
  "GET /api/v1/sso": "public",
  "POST /api/v1/setup": "public",
  "POST /api/v1/agents/pair": "public",
  "GET /api/v1/agents/self": "public",
  "DELETE /api/v1/agents/self": "public",
  // invitations are opened by people without an account yet; the token is the credential
  "POST /api/v1/invitations/preview": "public",
  "POST /api/v1/invitations/accept": "public",
  // the browser back from an OAuth authorization server: state bound to the signed-in user is the credential
  "GET /api/v1/oauth/callback": "public",
  // the consent page's view of an authorization request: the session cookie, checked inside, decides what it shows
  "GET /api/v1/oauth/consent": "public",
  // public share links: the unguessable token is the credential
  "GET /api/v1/public/shares/:token": "public",

  "GET /api/v1/me": "viewer",
  "PATCH /api/v1/me": "viewer",
  "GET /api/v1/me/identity-tokens": "viewer",
  "PUT /api/v1/me/identity-tokens": "viewer",
  "DELETE /api/v1/me/identity-tokens": "viewer",
  "POST /api/v1/workspaces": "viewer",
  "GET /api/v1/workspace": "viewer",
  "PATCH /api/v1/workspace": "admin",
  "DELETE /api/v1/workspace": "owner",
  "GET /api/v1/workspace/sso": "admin",
  "PATCH /api/v1/workspace/sso": "owner",
  "POST /api/v1/workspace/sso/provider": "owner",
  "DELETE /api/v1/workspace/sso/provider": "owner",
  "POST /api/v1/workspace/sso/provider/verify": "owner",
  // SCIM tokens open /scim/v2 of the workspace (lib/team/scim); PATCH /workspace's scimGroupRoles is owner-only too (checked by the service)
  "GET /api/v1/workspace/scim-tokens": "owner",
  "POST /api/v1/workspace/scim-tokens": "owner",
  "DELETE /api/v1/workspace/scim-tokens/:id": "owner",

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
  "GET /api/v1/audit/verify": "admin",
  "GET /api/v1/audit/sinks": "admin",
  "POST /api/v1/audit/sinks": "admin",
  "GET /api/v1/audit/sinks/:id": "admin",
  "PATCH /api/v1/audit/sinks/:id": "admin",
  "DELETE /api/v1/audit/sinks/:id": "admin",

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
  "GET /api/v1/servers/:id/capabilities/history": "viewer",
  "GET /api/v1/servers/:id/capabilities/diff": "viewer",
  "GET /api/v1/servers/:id/capabilities/watch": "viewer",
  "PUT /api/v1/servers/:id/capabilities/watch": "admin",
  "DELETE /api/v1/servers/:id/capabilities/watch": "admin",
  "POST /api/v1/servers/:id/capabilities/approve": "admin",
  "GET /api/v1/servers/:id/lint": "viewer",
  "GET /api/v1/servers/:id/gateway/clients": "member",
  "DELETE /api/v1/servers/:id/gateway/clients/:clientId": "admin",
  "GET /api/v1/virtual-servers": "viewer",
  "POST /api/v1/virtual-servers": "admin",
  "GET /api/v1/virtual-servers/:id": "viewer",
  "PATCH /api/v1/virtual-servers/:id": "admin",
  "DELETE /api/v1/virtual-servers/:id": "admin",
  // mock servers (lib/domains/mocks): members make and change them, everyone reads (what history shows)
  "GET /api/v1/mocks": "viewer",
  "POST /api/v1/mocks": "member",
  "GET /api/v1/mocks/:id": "viewer",
  "PATCH /api/v1/mocks/:id": "member",
  "DELETE /api/v1/mocks/:id": "member",
  "GET /api/v1/mocks/:id/export": "viewer",
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
  "GET /api/v1/sessions/:id/traffic/pins": "viewer",
  "PUT /api/v1/sessions/:id/traffic/:messageId/pin": "viewer",
  "DELETE /api/v1/sessions/:id/traffic/:messageId/pin": "viewer",

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
  // policy rules (docs/governance.md): admins write, everyone reads and tries the tester
  "GET /api/v1/policy-rules": "viewer",
  "POST /api/v1/policy-rules": "admin",
  "POST /api/v1/policy-rules/test": "viewer",
  "GET /api/v1/policy-rules/versions": "viewer",
  "POST /api/v1/policy-rules/rollback": "admin",
  "GET /api/v1/policy-rules/:id": "viewer",
  "PATCH /api/v1/policy-rules/:id": "admin",
  "DELETE /api/v1/policy-rules/:id": "admin",
  // collections: members edit their own (admins any: checked by the service), run and import
  "GET /api/v1/collections": "viewer",
  "POST /api/v1/collections": "member",
  "POST /api/v1/collections/import": "member",
  "GET /api/v1/collections/:id": "viewer",
  "PATCH /api/v1/collections/:id": "member",
  "DELETE /api/v1/collections/:id": "member",
  "GET /api/v1/collections/:id/export": "viewer",
  "GET /api/v1/collections/:id/runs": "viewer",
  "POST /api/v1/collections/:id/runs": "member",
  // monitors: as collections (members edit their own, admins any: checked by the service)
  "GET /api/v1/monitors": "viewer",
  "POST /api/v1/monitors": "member",
  "GET /api/v1/monitors/:id": "viewer",
  "PATCH /api/v1/monitors/:id": "member",
  "DELETE /api/v1/monitors/:id": "member",
  "GET /api/v1/monitors/:id/runs": "viewer",
  "GET /api/v1/monitors/:id/incidents": "viewer",
  "GET /api/v1/monitors/:id/ticks": "viewer",
  "GET /api/v1/monitors/:id/uptime": "viewer",
  "GET /api/v1/alerts": "viewer",
  // each person's own "seen up to" marker: the unread count counts only what their role may act on
  "GET /api/v1/alerts/unread": "viewer",
  "POST /api/v1/alerts/read": "viewer",
  "GET /api/v1/runs/:id": "viewer",
  "POST /api/v1/runs/:id/steps/:index/accept": "member",
  "POST /api/v1/runs/:id/share": "member",
  // replays: members send recorded calls again (as they run calls and collections), viewers read the reports
  "GET /api/v1/replays": "viewer",
  "POST /api/v1/replays": "member",
  "GET /api/v1/replays/:id": "viewer",
  // load tests: admins only (each one is many sessions and thousands of calls against a server)
  "GET /api/v1/load-tests": "admin",
  "POST /api/v1/load-tests": "admin",
  "GET /api/v1/load-tests/:id": "admin",
  "POST /api/v1/load-tests/:id/cancel": "admin",
  "GET /api/v1/environments": "viewer",
  "POST /api/v1/environments": "admin",
  "GET /api/v1/environments/:id": "viewer",
  "PATCH /api/v1/environments/:id": "admin",
  "DELETE /api/v1/environments/:id": "admin",

  "GET /api/v1/interactions": "viewer",
  "GET /api/v1/interactions/:id": "viewer",
  "POST /api/v1/interactions/:id/respond": "member",

  // who may decide (admins, owners, the rule's approver roles) is checked by the service
  "GET /api/v1/approvals": "viewer",
  "POST /api/v1/approvals/:id/approve": "member",
  "POST /api/v1/approvals/:id/deny": "member",

  "GET /api/v1/agents": "viewer",
  "GET /api/v1/agents/:id": "viewer",
  "DELETE /api/v1/agents/:id": "member",
  "POST /api/v1/agents/pairings": "member",
};

/**
 * The auditor (lib/core/access `gateRefusal`): a viewer's reads (GET of every "viewer" route), every
 * read of the audit log (each GET under AUDITOR_READS_UNDER: the log, its export, verify, sinks),
 * and these writes of the auditor's own things. Nothing else: no call, no change to the workspace.
 */
export const AUDITOR_READS_UNDER = "/api/v1/audit";
export const AUDITOR_ROUTES = [
  // their own API tokens, read-only ones only (lib/team/workspaces createToken)
  "POST /api/v1/tokens",
  "DELETE /api/v1/tokens/:id",
  // their own profile, their own "seen up to" marker, leaving; a policy dry run changes nothing
  "PATCH /api/v1/me",
  "POST /api/v1/alerts/read",
  "POST /api/v1/members/leave",
  "POST /api/v1/policy-rules/test",
] as const satisfies readonly ApiRouteKey[];

/**
 * Paths outside /api/v1 that next.config.js rewrites to an API route. A route handler reached
 * through a rewrite sees the original URL, so the entry of the route it was rewritten to applies.
 */
export const REWRITTEN_PATHS: Record<string, string> = {
  "/s/:token": "/api/v1/public/shares/:token",
};

/** The matrix entry for a request, or undefined when the route is not in the matrix. */
export function accessFor(method: string, pathname: string): { key: string; access: Access } | undefined {
  const found = matchRoute(pathname);
  if (!found) {
    const rewritten = rewrite(pathname.split("/").slice(1));
    return rewritten === undefined ? undefined : accessFor(method, rewritten);
  }
  const key = routeKeyOf(method, found.route);
  const access = (ROUTE_ACCESS as Record<string, Access>)[key];
  return access === undefined ? undefined : { key, access };
}

function rewrite(segments: string[]): string | undefined {
  for (const [source, destination] of Object.entries(REWRITTEN_PATHS)) {
    const params = matchPattern(source, segments);
    if (params) return destination.replace(/:(\w+)/g, (name, key: string) => encodeURIComponent(params[key] ?? name));
  }
  return undefined;
}
