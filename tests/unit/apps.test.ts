import { describe, expect, it } from "vitest";
import { buildAppCsp, isVisibleToApps, parseUiResource, safeSources, toolResourceUri } from "@/lib/domains/apps";

describe("MCP Apps helpers", () => {
  it("finds a tool's ui:// resource in the nested and the legacy meta keys", () => {
    expect(toolResourceUri({ _meta: { ui: { resourceUri: "ui://a/b.html" } } })).toBe("ui://a/b.html");
    expect(toolResourceUri({ _meta: { "ui/resourceUri": "ui://legacy" } })).toBe("ui://legacy");
    expect(toolResourceUri({ _meta: { ui: { resourceUri: "https://evil.example/app.html" } } })).toBeNull();
    expect(toolResourceUri({ name: "plain" })).toBeNull();
  });

  it("treats absent visibility as visible to apps, and honours a list without app", () => {
    expect(isVisibleToApps({})).toBe(true);
    expect(isVisibleToApps({ _meta: { ui: { visibility: ["app"] } } })).toBe(true);
    expect(isVisibleToApps({ _meta: { ui: { visibility: ["model"] } } })).toBe(false);
  });

  it("accepts only the MCP Apps mimeType, in text or base64", () => {
    const ok = parseUiResource({ contents: [{ uri: "ui://x", mimeType: "text/html;profile=mcp-app", text: "<p>hi</p>", _meta: { ui: { csp: { connectDomains: ["https://api.example"] } } } }] }, "ui://x");
    expect(ok).toMatchObject({ html: "<p>hi</p>", csp: { connectDomains: ["https://api.example"] } });
    const blob = parseUiResource({ contents: [{ uri: "ui://x", mimeType: "text/html;profile=mcp-app", blob: Buffer.from("<b>é</b>").toString("base64") }] }, "ui://x");
    expect(blob).toMatchObject({ html: "<b>é</b>" });
    expect(parseUiResource({ contents: [{ uri: "ui://x", mimeType: "text/html", text: "x" }] }, "ui://x")).toEqual({
      error: 'The UI resource has mimeType "text/html", not text/html;profile=mcp-app',
    });
    expect(parseUiResource({ contents: [] }, "ui://x")).toHaveProperty("error");
  });

  it("builds the spec's restrictive default CSP when nothing is declared", () => {
    expect(buildAppCsp(undefined)).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
        "font-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'; form-action 'none'",
    );
  });

  it("lets in declared origins only, never keywords or injected directives", () => {
    expect(safeSources(["https://cdn.example", "https://*.example.org:8443/", "'unsafe-eval'", "*", "https://a.example; script-src *", "data:", "https://x.example/path"])).toEqual([
      "https://cdn.example",
      "https://*.example.org:8443",
    ]);
    const csp = buildAppCsp({ connectDomains: ["wss://live.example"], resourceDomains: ["https://cdn.example"], frameDomains: ["https://video.example"] });
    expect(csp).toContain("connect-src wss://live.example");
    expect(csp).toContain("script-src 'self' 'unsafe-inline' https://cdn.example");
    expect(csp).toContain("frame-src https://video.example");
  });
});
