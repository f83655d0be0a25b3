import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDITOR_READS_UNDER, AUDITOR_ROUTES, ROLES, ROUTE_ACCESS, roleAtLeast, type Role } from "@/lib/core/access";
import { insertMember } from "../support/database";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { LAST, PIPELINES, type Caller } from "../support/pipelines";
import { apiRouteFiles, concretePath, routeKey } from "../support/routes";

/**
 * The role matrix, end to end: every route file under app/api/v1 × every role (and a read-only
 * token), against the running console, through both pipelines (the direct path for bearer tokens,
 * and Next's). A refused pair must answer 403 naming the role it needs; an allowed pair must get
 * past the gate (any answer but 401 and the matrix's 403). A read-only token acts as a viewer and
 * writes nothing: every non-GET route answers it 403 naming the full scope. A new pipeline joins
 * PIPELINES.
 */
describe.each(PIPELINES)("role × route through %s", (_label, env) => {
  let sb: ConsoleHandle;
  const callers: (Caller & { readOnly?: boolean })[] = [];

  beforeAll(async () => {
    sb = await startConsole({ env });
    const owner = await setupOwner(sb.url);
    callers.push({ label: "owner", role: "owner", token: owner.token });
    // Members of each role, made directly in the database so this test depends on nothing but the gate.
    for (const role of ["admin", "member", "viewer", "auditor"] as const) {
      const token = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: `user-${role}`, name: `A ${role}`, email: `${role}@example.com`, role });
      callers.push({ label: role, role, token });
    }
    const readOnly = await owner.api("POST", "/api/v1/tokens", { name: "read", scope: "read" });
    expect(readOnly.status).toBe(201);
    expect(readOnly.body.token.scope).toBe("read");
    callers.push({ label: "owner's read-only token", role: "viewer", token: readOnly.body.secret, readOnly: true });
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("answers each role as the matrix says, on every route", async () => {
    const routes = apiRouteFiles()
      .map((f) => ({ ...f, key: routeKey(f.method, f.folder), path: concretePath(f.folder) }))
      .filter((r) => ROUTE_ACCESS[r.key] !== "public")
      .sort((a, b) => LAST.indexOf(a.key) - LAST.indexOf(b.key));
    expect(routes.length).toBeGreaterThan(70);
    const failures: string[] = [];
    for (const caller of callers) {
      for (const route of routes) {
        const needed = ROUTE_ACCESS[route.key] as Role;
        const { status, body } = await send(sb.url, caller.token, route.method, route.path);
        const refusedByMatrix = status === 403 && body?.error?.details?.requiredRole === needed;
        const readOnlyWrite = caller.readOnly === true && route.method !== "GET";
        const shouldPass = (caller.role === "auditor" ? auditorPasses(route.key, route.method, needed) : roleAtLeast(caller.role, needed)) && !readOnlyWrite;
        if (shouldPass && (status === 401 || refusedByMatrix)) failures.push(`${caller.label} ${route.key}: ${status}, expected to pass the gate`);
        if (!shouldPass && !refusedByMatrix) failures.push(`${caller.label} ${route.key}: ${status}, expected 403 (needs ${needed})`);
        if (readOnlyWrite && body?.error?.details?.requiredScope !== "full") failures.push(`${caller.label} ${route.key}: ${status}, expected 403 naming the full scope`);
        if (!shouldPass && refusedByMatrix && body.error.code !== "forbidden") failures.push(`${caller.label} ${route.key}: wrong error shape`);
      }
    }
    expect(failures).toEqual([]);
    expect(ROLES).toHaveLength(5);
  }, 300_000); // every route × six callers; two suites share two cores
});

// The auditor, spelled out here rather than through lib/core/access: a viewer's GETs, every GET of the
// audit log, and the few writes of their own things the matrix names; nothing else.
function auditorPasses(key: string, method: string, needed: Role): boolean {
  if ((AUDITOR_ROUTES as readonly string[]).includes(key)) return true;
  if (method !== "GET") return false;
  const path = key.slice(method.length + 1);
  return needed === "viewer" || path === AUDITOR_READS_UNDER || path.startsWith(`${AUDITOR_READS_UNDER}/`);
}

describe("the auditor's reach", () => {
  it("reads the audit log and its export but writes nothing a viewer may, and runs no call", () => {
    expect(auditorPasses("GET /api/v1/audit", "GET", "admin")).toBe(true);
    expect(auditorPasses("GET /api/v1/audit/export", "GET", "admin")).toBe(true);
    expect(auditorPasses("PUT /api/v1/calls/:id/star", "PUT", "viewer")).toBe(false);
    expect(auditorPasses("POST /api/v1/servers/:id/tools/call", "POST", "member")).toBe(false);
    expect(AUDITOR_ROUTES.every((k) => k in ROUTE_ACCESS)).toBe(true);
  });
});

async function send(base: string, token: string, method: string, path: string) {
  const abort = new AbortController();
  const res = await fetch(`${base}${path}`, {
    method,
    signal: abort.signal,
    headers: { authorization: `Bearer ${token}`, ...(method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }) },
    body: method === "GET" || method === "DELETE" ? undefined : "{}",
  });
  // Event streams never end: the status and headers are the answer.
  if (res.headers.get("content-type")?.includes("text/event-stream") || res.headers.get("content-disposition")) {
    abort.abort();
    return { status: res.status, body: null };
  }
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}
