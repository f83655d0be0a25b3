import { describe, expect, it } from "vitest";
import { ROUTE_ACCESS, accessFor, effectiveRole, roleAtLeast } from "@/lib/core/access";
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
