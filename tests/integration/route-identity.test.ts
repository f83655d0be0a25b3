import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessFor, ROUTE_ACCESS, roleAtLeast, type Role } from "@/lib/core/access";
import { insertMember } from "../support/database";
import { rawRequest } from "../support/raw-http";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { LAST, PIPELINES, type Caller } from "../support/pipelines";
import { apiRouteFiles, concretePath, routeKey } from "../support/routes";

/**
 * One identity for a request's route (issue 24): every route file × the callers a route may refuse
 * × hostile request shapes, through both pipelines (the direct path for bearer tokens, and Next's
 * with SWITCHBOARD_DIRECT_API=0). An answer that passed the role gate names the matrix entry it was
 * judged by (x-switchboard-route); it must be the route the request line names, for a caller the
 * matrix lets in.
 */
describe.each(PIPELINES)("route identity through %s", (_label, env) => {
  let sb: ConsoleHandle;
  let port: number;
  let workspaceId: string;
  let ownerApi: Awaited<ReturnType<typeof setupOwner>>["api"];
  const callers: Caller[] = [];

  beforeAll(async () => {
    sb = await startConsole({ env });
    port = Number(new URL(sb.url).port);
    const owner = await setupOwner(sb.url);
    ownerApi = owner.api;
    workspaceId = owner.workspace.id;
    for (const role of ["member", "viewer"] as const) {
      const token = await insertMember(sb.db, { workspaceId, userId: `user-${role}`, name: `A ${role}`, email: `${role}@example.com`, role });
      callers.push({ label: role, role, token });
    }
    const readOnly = await owner.api("POST", "/api/v1/tokens", { name: "read", scope: "read" });
    callers.push({ label: "read-only token", role: "viewer", token: readOnly.body.secret });
  });
  afterAll(async () => {
    await sb?.stop();
  });

  const send = (caller: Caller, method: string, target: string, host: string | null = `127.0.0.1:${port}`) =>
    rawRequest(port, { method, target, host, headers: { authorization: `Bearer ${caller.token}`, "content-type": "application/json" }, body: method === "GET" ? "" : "{}" });

  it("the plain request line: the gate names the route it judged, and only for a caller it lets in", async () => {
    const viewer = callers.find((c) => c.label === "viewer")!;
    const member = callers.find((c) => c.label === "member")!;
    const failures: string[] = [];
    // Leaving would end the callers' membership for the tests after this one (roles.test.ts covers it).
    for (const route of routes().filter((r) => r.key !== "POST /api/v1/members/leave")) {
      for (const caller of [viewer, member]) {
        const answer = await send(caller, route.method, route.path);
        const allowed = roleAtLeast(caller.role, route.access);
        const mark = answer.headers["x-switchboard-route"];
        if (allowed && mark !== route.key) failures.push(`${caller.label} ${route.key}: judged as ${mark ?? "nothing"} (${answer.status})`);
        if (!allowed && (mark !== undefined || answer.status !== 403)) failures.push(`${caller.label} ${route.key}: ${answer.status}, judged as ${mark}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("the reported bypass: a path inside Host makes a viewer neither read the audit log nor an admin", async () => {
    const viewer = callers.find((c) => c.label === "viewer")!;
    const host = `127.0.0.1:${port}/api/v1/me?`;
    const audit = await send(viewer, "GET", "/api/v1/audit", host);
    const promote = await rawRequest(port, {
      method: "PATCH",
      target: "/api/v1/members/user-viewer",
      host,
      headers: { authorization: `Bearer ${viewer.token}`, "content-type": "application/json" },
      body: JSON.stringify({ role: "admin" }),
    });
    expect([audit.status, promote.status]).toEqual([400, 400]);
    await expectNothingChanged();
  });

  it("hostile shapes of every route never pass the gate", async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes()) {
      for (const caller of callers.filter((c) => c.role === "viewer")) {
        for (const shape of shapes(route.method, route.path, port)) {
          const answer = await send(caller, shape.method, shape.target, shape.host);
          sent++;
          const mark = answer.headers["x-switchboard-route"];
          if (answer.status >= 500 || !judgedRightly(mark, shape.method, shape.target)) failures.push(`${caller.label} ${shape.method} ${shape.target} Host ${shape.host}: ${answer.status}, judged as ${mark}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    await expectNothingChanged();
  }, 240_000); // over a thousand requests; two suites share two cores

  it("fuzz: whatever the target and Host, a viewer passes the gate only for the route the request line names", async () => {
    const viewer = callers.find((c) => c.label === "viewer")!;
    const folders = apiRouteFiles().filter((f) => !LAST.includes(routeKey(f.method, f.folder)));
    const piece = fc.constantFrom("", ".", "..", "%2f", "%2e", "%61", "AUDIT", "me", "audit", "x", "%40", "@", ";", "~");
    const target = fc
      .tuple(
        fc.constantFrom(...folders),
        fc.option(fc.tuple(fc.array(piece, { minLength: 1, maxLength: 2 }), fc.nat(6)), { nil: undefined, freq: 1 }),
        fc.oneof({ weight: 3, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("?", "#", "?/api/v1/audit", "/") }),
        fc.oneof({ weight: 3, arbitrary: fc.constant("/") }, { weight: 1, arbitrary: fc.constantFrom("//", "http://127.0.0.1/", "/./") }),
      )
      .map(([f, insert, tail, lead]) => {
        const parts = concretePath(f.folder).split("/").slice(1);
        if (insert) parts.splice(Math.min(insert[1], parts.length), 0, insert[0].join(""));
        return { method: f.method, target: lead + parts.join("/") + tail };
      });
    const host = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(`127.0.0.1:${port}`, "localhost", `[::1]:${port}`) },
      { weight: 1, arbitrary: fc.constantFrom(`127.0.0.1:${port}/api/v1/me?`, `127.0.0.1:${port}#`, `u@127.0.0.1:${port}`, `127.0.0.1:${port}?x`, "a/b", "") },
    );
    let judged = 0;
    await fc.assert(
      fc.asyncProperty(target, host, async ({ method, target: t }, h) => {
        const answer = await send(viewer, method, t, h);
        expect(answer.status).toBeLessThan(500);
        const mark = answer.headers["x-switchboard-route"];
        if (mark !== undefined) judged++;
        expect(judgedRightly(mark, method, t), `${method} ${t} Host ${h}: judged as ${mark}`).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(judged).toBeGreaterThan(10);
    await expectNothingChanged();
  });

  async function expectNothingChanged() {
    const members = await ownerApi("GET", "/api/v1/members");
    expect(members.status).toBe(200);
    const roles = Object.fromEntries((members.body.items as { id: string; role: string }[]).map((m) => [m.id, m.role]));
    expect(roles).toMatchObject({ "user-viewer": "viewer", "user-member": "member" });
    expect((await ownerApi("GET", "/api/v1/workspace")).status).toBe(200);
  }
});

/** Passed the gate only as the route its request line names, and only where a viewer may go. */
function judgedRightly(mark: string | undefined, method: string, target: string): boolean {
  if (mark === undefined) return true;
  return roleAtLeast("viewer", (ROUTE_ACCESS as Record<string, string>)[mark] as Role) && mark === accessFor(method, target.split("?")[0]!)?.key;
}

function routes() {
  return apiRouteFiles()
    .map((f) => ({ method: f.method, key: routeKey(f.method, f.folder), path: concretePath(f.folder), access: ROUTE_ACCESS[routeKey(f.method, f.folder)] as Role }))
    .filter((r) => (r.access as string) !== "public")
    .sort((a, b) => LAST.indexOf(a.key) - LAST.indexOf(b.key));
}

/** Ways to write a request for `path` that a parser could read as another route. */
function shapes(method: string, path: string, port: number): { method: string; target: string; host: string | null }[] {
  const host = `127.0.0.1:${port}`;
  const parts = path.split("/");
  const last = parts.at(-1)!;
  const withLast = (segment: string) => [...parts.slice(0, -1), segment].join("/");
  const rest = path.slice("/api/v1/".length);
  const other = method === "GET" ? "PUT" : "GET";
  return [
    { method, target: path, host: `${host}/api/v1/me?` },
    { method, target: path, host: `${host}#` },
    { method, target: path, host: `me@${host}` },
    { method, target: path, host: `${host}?` },
    { method, target: path, host: `${host}/api/v1/me/../..` },
    { method, target: `http://${host}${path}`, host: host },
    { method, target: `http://${host}/api/v1/me?${path}`, host },
    { method, target: `//${host}${path}`, host },
    { method, target: `/api/v1//${rest}`, host },
    { method, target: `/api/v1/./${rest}`, host },
    { method, target: `/api/v1/me/../${rest}`, host },
    { method, target: `/api/v1/%2e/${rest}`, host },
    { method, target: parts.length > 4 ? `${parts.slice(0, -1).join("/")}%2f${last}` : `${path}%2f`, host },
    { method, target: withLast(`%${last.charCodeAt(0).toString(16)}${last.slice(1)}`), host },
    { method, target: withLast(last.toUpperCase()), host },
    { method, target: `${path}/`, host },
    { method, target: `${path}#/../../me`, host },
    { method: other, target: path, host },
  ];
}
