import { describe, expect, it } from "vitest";
import { AUDITOR_ROUTES, ROUTE_ACCESS, accessFor, auditorMay, effectiveRole, gateRefusal, roleAtLeast } from "@/lib/core/access";
import { apiRouteFiles, concretePath, routeKey } from "../support/routes";

describe("the role matrix", () => {
  const files = apiRouteFiles();
  const keys = files.map((f) => routeKey(f.method, f.folder));

  it("has an entry for every route file and method under app/api/v1", () => {
    const missing = keys.filter((k) => !(k in ROUTE_ACCESS));
    expect(missing).toEqual([]);
  });

  it("has no entry without a route file", () => {
    const stale = Object.keys(ROUTE_ACCESS).filter((k) => !(keys as string[]).includes(k));
    expect(stale).toEqual([]);
  });

  it("resolves each concrete path to its own entry (literal segments beat parameters)", () => {
    for (const f of files) {
      const found = accessFor(f.method, concretePath(f.folder));
      expect(found?.key, `${f.method} ${f.folder}`).toBe(routeKey(f.method, f.folder));
    }
    expect(accessFor("GET", "/api/v1/servers/export")?.key).toBe("GET /api/v1/servers/export");
    expect(accessFor("GET", "/api/v1/servers/abc")?.key).toBe("GET /api/v1/servers/:id");
    expect(accessFor("GET", "/api/v1/nothing-here")).toBeUndefined();
  });

  it("orders roles and caps read-only tokens at viewer", () => {
    expect(roleAtLeast("owner", "admin")).toBe(true);
    expect(roleAtLeast("member", "admin")).toBe(false);
    expect(roleAtLeast("viewer", "viewer")).toBe(true);
    expect(roleAtLeast("bogus", "viewer")).toBe(false);
    expect(effectiveRole("owner", "read")).toBe("viewer");
    expect(effectiveRole("admin", "full")).toBe("admin");
    expect(effectiveRole("auditor", "read")).toBe("auditor");
  });

  it("lets the auditor read (viewer routes, the audit log) and write only its own named things", () => {
    const refusals: string[] = [];
    for (const [key, access] of Object.entries(ROUTE_ACCESS)) {
      if (access === "public") continue;
      const method = key.split(" ")[0]!;
      const allowed = gateRefusal({ key, access, principal: { role: "auditor" }, method }) === null;
      const expected = (AUDITOR_ROUTES as readonly string[]).includes(key) || (method === "GET" && (access === "viewer" || key.startsWith("GET /api/v1/audit")));
      if (allowed !== expected) refusals.push(`${key}: ${allowed ? "allowed" : "refused"}`);
    }
    expect(refusals).toEqual([]);
    expect(auditorMay("GET /api/v1/audit/verify", "admin", "GET")).toBe(true);
    expect(auditorMay("POST /api/v1/servers/:id/tools/call", "member", "POST")).toBe(false);
    expect(auditorMay("POST /api/v1/approvals/:id/approve", "member", "POST")).toBe(false);
    expect(auditorMay("PUT /api/v1/calls/:id/star", "viewer", "PUT")).toBe(false);
    expect(gateRefusal({ key: "POST /api/v1/tokens", access: "viewer", principal: { role: "auditor", tokenScope: "read" }, method: "POST" })?.status).toBe(403);
  });
});

describe("docs/api.md", () => {
  it("shows exactly the role matrix of the code", async () => {
    const fs = await import("node:fs");
    const text = fs.readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const block = text.slice(text.indexOf("<!-- roles:start -->"), text.indexOf("<!-- roles:end -->"));
    const documented = Object.fromEntries([...block.matchAll(/^\| `([A-Z]+ [^`]+)` \| (\w+) \|$/gm)].map((m) => [m[1], m[2]]));
    expect(documented).toEqual(ROUTE_ACCESS);
  });
});
