import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accessFor } from "@/lib/core/access";
import { matchRoute } from "@/lib/core/routes";
import { declaredBodyCap, refusedTarget } from "@/lib/api/request-target";
import { apiRouteFiles } from "../support/routes";

const files = apiRouteFiles();
const methodsOf = new Map<string, Set<string>>();
for (const f of files) methodsOf.set(`/api/v1/${f.folder}`, (methodsOf.get(`/api/v1/${f.folder}`) ?? new Set()).add(f.method));

describe("refusedTarget", () => {
  it.each([
    ["/api/v1/me", "127.0.0.1:3000"],
    ["/api/v1/servers/abc?x=1&y=/api/v1/audit", "localhost"],
    ["/api/v1/calls/%E2%9C%93", "[::1]:3000"],
    ["/", "console.example.com"],
    ["/api/v1/servers/", "a-b.example"],
    // A host's OAuth client id is its metadata document's URL.
    ["/api/v1/servers/x/gateway/clients/https%3A%2F%2Fcimd.example%2Fclient.json", "127.0.0.1:3000"],
    ["/api/v1/members%2fleave", "127.0.0.1"],
  ])("takes %s with Host %s", (target, host) => {
    expect(refusedTarget(target, { host }, false)).toBeNull();
  });

  it.each([
    ["/api/v1/audit", "127.0.0.1:3000/api/v1/me?", /Host/],
    ["/api/v1/audit", "127.0.0.1:3000#", /Host/],
    ["/api/v1/audit", "me@127.0.0.1", /Host/],
    ["/api/v1/audit", "127.0.0.1:3000?", /Host/],
    ["/api/v1/audit", "a.0", /Host/],
    ["/api/v1/audit", "127.0.0.1:99999", /Host/],
    ["http://127.0.0.1/api/v1/me", "127.0.0.1", /origin-form/],
    ["//127.0.0.1/api/v1/me", "127.0.0.1", /origin-form/],
    ["*", "127.0.0.1", /origin-form/],
    ["/api/v1/./audit", "127.0.0.1", /dot segment/],
    ["/api/v1/me/../audit", "127.0.0.1", /dot segment/],
    ["/api/v1//audit", "127.0.0.1", /empty segment/],
    ["/api/v1/%61udit", "127.0.0.1", /escapes/],
    ["/api/v1/%2e%2e/audit", "127.0.0.1", /escapes/],
    ["/api/v1/%5f", "127.0.0.1", /escapes/],
    ["/api/v1/me#/../audit", "127.0.0.1", /fragment/],
    ["/api/v1/\\audit", "127.0.0.1", /percent-encoded/],
    ["/api/v1/é", "127.0.0.1", /percent-encoded/],
    ["/api/v1/%E0", "127.0.0.1", /UTF-8/],
  ])("refuses %s with Host %s", (target, host, why) => {
    expect(refusedTarget(target, { host }, false)).toMatch(why);
  });

  it("judges X-Forwarded-Host only behind a trusted proxy", () => {
    const headers = { host: "127.0.0.1", "x-forwarded-host": "evil/api/v1/me?" };
    expect(refusedTarget("/api/v1/me", headers, false)).toBeNull();
    expect(refusedTarget("/api/v1/me", headers, true)).toMatch(/X-Forwarded-Host/);
  });

  it("caps declared bodies outside the API and the gateway", () => {
    expect(declaredBodyCap("/api/auth/sign-in/email")).toBe(1024 * 1024);
    expect(declaredBodyCap("/")).toBe(1024 * 1024);
    expect(declaredBodyCap("/api/v1/servers")).toBeNull();
    expect(declaredBodyCap("/mcp/abc")).toBeNull();
  });
});

// Pieces a hostile request target or Host is made of: route names, their look-alikes and the
// characters URL parsers treat specially.
const NAMES = ["api", "v1", "me", "audit", "members", "leave", "servers", "import", "export", "calls", "tokens", "x", "AUDIT", "Me", "a;b", "@", "%40", "%3f", "%23", "%C3%A9", ""];
const HOSTILE = [".", "..", "%2f", "%2F", "%2e", "%61udit", "%5c", "é", "a b", "\\"];
const segment = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE) }, { weight: 1, arbitrary: fc.stringMatching(/^[a-z%.;@:~-]{0,6}$/) });
const target = fc
  .tuple(
    fc.oneof(
      { weight: 1, arbitrary: fc.array(segment, { maxLength: 6 }) },
      { weight: 2, arbitrary: fc.array(segment, { maxLength: 4 }).map((rest) => ["api", "v1", ...rest]) },
      // A real route's path, its parameters filled with anything.
      { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...files.map((f) => f.folder)), fc.array(segment, { minLength: 4, maxLength: 4 })).map(([folder, fill]) => ["api", "v1", ...folder.split("/").map((p, i) => (p.startsWith("[") ? fill[i % 4]! : p))]) },
    ),
    fc.constantFrom("", "?", "?a=/api/v1/audit", "#x", "?#/../audit"),
    fc.oneof({ weight: 8, arbitrary: fc.constant("/") }, { weight: 1, arbitrary: fc.constantFrom("//", "http://h/", "") }),
  )
  .map(([parts, tail, lead]) => lead + parts.join("/") + tail);
const host = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("127.0.0.1:3000", "localhost", "[::1]:3000", "console.example.com", "") },
  { weight: 1, arbitrary: fc.constantFrom("127.0.0.1:3000/api/v1/me?", "h/api/v1/audit#", "u@127.0.0.1", "h?", "[::1]/x") },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9.:@/?#[\]%-]{0,20}$/) },
);

describe("one identity for a request's route (property)", () => {
  it("a target taken gives handlers a URL with the request line's path, and the gate the direct path's route", () => {
    let taken = 0;
    let judged = 0;
    fc.assert(
      fc.property(target, host, fc.constantFrom("GET", "POST", "PATCH", "DELETE"), (t, h, method) => {
        if (refusedTarget(t, { host: h }, false) !== null) return;
        taken++;
        const pathname = t.split("?")[0]!;
        // What lib/api/pipeline.ts and Next hand a handler, and what the gate reads.
        expect(new URL(`http://${h || "localhost"}${t}`).pathname).toBe(pathname);
        const found = matchRoute(pathname);
        if (!found) return;
        const pattern = found.route.pattern;
        if (!methodsOf.get(pattern.replace(/:(\w+)/g, "[$1]"))?.has(method)) return;
        judged++;
        expect(accessFor(method, pathname)?.key).toBe(`${method} ${pattern}`);
      }),
      { numRuns: 5000 },
    );
    // The generators reach both checks often enough to mean something.
    expect(taken).toBeGreaterThan(500);
    expect(judged).toBeGreaterThan(50);
  });
});
