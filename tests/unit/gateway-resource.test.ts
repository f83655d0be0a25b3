import { describe, expect, it } from "vitest";
import { gatewayChallenge, gatewayResourceUrl, parseGatewayResource, protectedResourceMetadataUrl, resourceCovers, resourceOfMetadataPath } from "@/lib/identity/gateway-auth";

const O = "https://sb.example";

describe("gateway endpoints as OAuth resources", () => {
  it("builds and reads endpoint URLs in one spelling", () => {
    const url = gatewayResourceUrl(O, "team", "files α/β");
    expect(url).toBe("https://sb.example/mcp/team/files%20%CE%B1%2F%CE%B2");
    expect(parseGatewayResource(url)).toEqual({ url, origin: O, workspaceSlug: "team", serverName: "files α/β" });
    expect(parseGatewayResource(`${O}/mcp/team`)).toMatchObject({ workspaceSlug: "team", serverName: null });
    for (const other of [`${O}/mcp/team/`, `${O}/mcp/team/x?y=1`, `${O}/mcp/team/x#f`, `${O}/mcp/te%61m/x`, `${O}/mcp/a/b/c`, `${O}/mcp/`, `${O}/api/mcp/a`, "ftp://sb.example/mcp/a", "not a url", `${O}/mcp/%E0%A4%A/x`]) {
      expect(parseGatewayResource(other), other).toBeNull();
    }
  });

  it("lets the aggregated endpoint's grant cover its own workspace's servers only", () => {
    const agg = gatewayResourceUrl(O, "team");
    const x = gatewayResourceUrl(O, "team", "x");
    expect(resourceCovers(x, x)).toBe(true);
    expect(resourceCovers(agg, x)).toBe(true);
    expect(resourceCovers(x, agg)).toBe(false);
    expect(resourceCovers(x, gatewayResourceUrl(O, "team", "y"))).toBe(false);
    expect(resourceCovers(agg, gatewayResourceUrl(O, "other", "x"))).toBe(false);
    expect(resourceCovers(agg, gatewayResourceUrl("https://elsewhere.example", "team", "x"))).toBe(false);
  });

  it("points 401s at the path-aware Protected Resource Metadata", () => {
    const x = gatewayResourceUrl(O, "team", "a b");
    expect(protectedResourceMetadataUrl(x)).toBe("https://sb.example/.well-known/oauth-protected-resource/mcp/team/a%20b");
    expect(resourceOfMetadataPath(O, "/.well-known/oauth-protected-resource/mcp/team/a%20b")?.url).toBe(x);
    expect(resourceOfMetadataPath(O, "/.well-known/oauth-protected-resource/other")).toBeNull();
    expect(gatewayChallenge(x)).toBe(`Bearer resource_metadata="${protectedResourceMetadataUrl(x)}", scope="gateway offline_access"`);
    expect(gatewayChallenge(x, "invalid_token")).toMatch(/, error="invalid_token"$/);
  });
});
