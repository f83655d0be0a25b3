import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_ACCESS, accessFor } from "@/lib/core/access";
import { matchRoute } from "@/lib/core/routes";
import { ROUTE_TABLE } from "@/lib/core/routes/table.generated";
import { matrixDisagreements, modulesSource, scanRoutes, tableSource } from "../../scripts/routes";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the route table (lib/core/routes/table.generated.ts)", () => {
  it("is what scripts/routes.ts generates from app/api and app/mcp today", () => {
    expect(fs.readFileSync(path.join(ROOT, "lib/core/routes/table.generated.ts"), "utf8")).toBe(tableSource(scanRoutes()));
    expect(fs.readFileSync(path.join(ROOT, "lib/api/route-modules.generated.ts"), "utf8")).toBe(modulesSource(scanRoutes()));
  });

  it("agrees with the role matrix in both directions", () => {
    expect(matrixDisagreements(scanRoutes(), Object.keys(ROUTE_ACCESS))).toEqual([]);
  });

  it("names a new route file the matrix lacks, and a matrix entry no file serves", () => {
    const routes = [...scanRoutes(), { pattern: "/api/v1/widgets", page: "/api/v1/widgets/route", methods: ["POST"] }];
    expect(matrixDisagreements(routes, [...Object.keys(ROUTE_ACCESS), "GET /api/v1/gone"])).toEqual([
      "POST /api/v1/widgets has a route file but no entry in the role matrix",
      "GET /api/v1/gone is in the role matrix but no route file serves it",
    ]);
  });

  it("reads exported methods from a route file in a scratch app folder", () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync("/tmp"), "routes-"));
    fs.mkdirSync(path.join(dir, "app/api/v1/things/[id]"), { recursive: true });
    fs.mkdirSync(path.join(dir, "app/api/v1/things/latest"), { recursive: true });
    fs.mkdirSync(path.join(dir, "app/mcp"), { recursive: true });
    fs.writeFileSync(path.join(dir, "app/api/v1/things/[id]/route.ts"), "export const GET = x;\nexport async function DELETE() {}\nconst POST = 1;\n");
    fs.writeFileSync(path.join(dir, "app/api/v1/things/latest/route.ts"), "export const GET = x;\n");
    expect(scanRoutes(dir)).toEqual([
      { pattern: "/api/v1/things/latest", page: "/api/v1/things/latest/route", methods: ["GET"] },
      { pattern: "/api/v1/things/:id", page: "/api/v1/things/[id]/route", methods: ["GET", "DELETE"] },
    ]);
    fs.rmSync(dir, { recursive: true });
  });

  it("matches a static segment before a parameter, as Next does, and the gate judges by the same match", () => {
    expect(matchRoute("/api/v1/servers/export")?.route.pattern).toBe("/api/v1/servers/export");
    expect(matchRoute("/api/v1/servers/abc")).toMatchObject({ route: { pattern: "/api/v1/servers/:id" }, params: { id: "abc" } });
    expect(matchRoute("/api/v1/servers/a%2Fb/sessions")).toMatchObject({ route: { pattern: "/api/v1/servers/:id/sessions" }, params: { id: "a/b" } });
    expect(matchRoute("/api/v1/servers/%E0")).toBeNull();
    expect(matchRoute("/mcp/team/everything")?.route.pattern).toBe("/mcp/:slug/:server");
    for (const route of ROUTE_TABLE.filter((r) => r.pattern.startsWith("/api/v1/"))) {
      const path = route.pattern.replace(/:\w+/g, (p) => (p === ":kind" ? "tools" : "x"));
      for (const method of route.methods) expect(accessFor(method, path)?.key, path).toBe(`${method} ${route.pattern}`);
    }
    expect(accessFor("GET", "/s/tok")?.key).toBe("GET /api/v1/public/shares/:token");
  });
});

describe("a trailing slash", () => {
  it("names no route (Next redirects it), so neither pipeline nor the gate serves it as the route without one", () => {
    expect(matchRoute("/api/v1/members/leave/")).toBeNull();
    expect(accessFor("POST", "/api/v1/members/leave/")).toBeUndefined();
    expect(matchRoute("/api/v1/calls/")).toBeNull();
  });
});
