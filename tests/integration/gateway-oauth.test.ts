import { auth } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { navigate } from "../support/oauth-browser";
import { connectHost, consentView as consentViewAt, setUpGatewayOAuth, type GatewayOAuthWorld } from "./gateway-oauth-support";

describe("the console as OAuth authorization server of its gateway endpoints: discovery and tokens", () => {
  let sb: ConsoleHandle;
  let verify: GatewayOAuthWorld["verify"];
  let forget: GatewayOAuthWorld["forget"];
  let revokeGrants: GatewayOAuthWorld["revokeGrants"];
  let ada: GatewayOAuthWorld["ada"];
  let endpoint: string;
  let sibling: string;
  let aggregated: string;
  let foreign: string;

  const get = navigate;
  const connect = (resource: string) => connectHost(sb.url, resource, ada.cookie);
  const consentView = (consentUrl: string, cookie: string) => consentViewAt(sb.url, consentUrl, cookie);

  beforeAll(async () => {
    sb = await startConsole();
    ({ verify, forget, revokeGrants, ada, endpoint, sibling, aggregated, foreign } = await setUpGatewayOAuth(sb));
  });

  afterAll(async () => {
    await sb?.stop();
  });

  it("is discovered from an endpoint's Protected Resource Metadata", async () => {
    const prm = await get(`${sb.url}/.well-known/oauth-protected-resource${new URL(endpoint).pathname}`);
    expect(prm.status).toBe(200);
    const metadata = (await prm.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: endpoint, authorization_servers: [`${sb.url}/api/auth`], scopes_supported: ["gateway", "offline_access"], bearer_methods_supported: ["header"] });
    const aggregatedPrm = (await (await get(`${sb.url}/.well-known/oauth-protected-resource${new URL(aggregated).pathname}`)).json()) as { resource: string };
    expect(aggregatedPrm.resource).toBe(aggregated);
    expect((await get(`${sb.url}/.well-known/oauth-protected-resource/mcp/a/b/c`)).status).toBe(404);

    const as = await get(`${sb.url}/.well-known/oauth-authorization-server/api/auth`);
    expect(as.status).toBe(200);
    const server = (await as.json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: `${sb.url}/api/auth`,
      authorization_endpoint: `${sb.url}/api/auth/oauth2/authorize`,
      token_endpoint: `${sb.url}/api/auth/oauth2/token`,
      registration_endpoint: `${sb.url}/api/auth/oauth2/register`,
      revocation_endpoint: `${sb.url}/api/auth/oauth2/revoke`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(server.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
  });

  it("runs DCR, PKCE, consent and the code exchange for an MCP host; the token is bound to its endpoint", async () => {
    const { host, consentUrl } = await connect(endpoint);
    expect(host.info?.client_id).toBeTruthy();
    expect(host.authorizationUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(host.authorizationUrl!.searchParams.get("resource")).toBe(endpoint);

    // The consent page (prerendered; it reads what to show from the API) names the client, the
    // workspace, the server and the scopes (in words in the browser: tests/e2e/gateway-consent.spec.ts).
    expect((await get(new URL(consentUrl, sb.url).href, ada.cookie)).status).toBe(200);
    expect(await consentView(consentUrl, ada.cookie)).toMatchObject({
      state: "ready",
      client: { name: "Test <Host>" },
      endpoints: [{ resource: endpoint, serverName: "files α/β", workspace: { name: "Default" }, role: "owner" }],
      scopes: expect.arrayContaining(["gateway"]),
      user: { email: expect.any(String) },
    });

    const token = host.saved!.access_token;
    expect(host.saved!.refresh_token).toBeTruthy();
    expect(await verify(token, endpoint)).toEqual({ userId: ada.userId, clientId: host.info!.client_id, scopes: ["gateway", "offline_access"], resource: endpoint });
    expect(await verify(token, sibling)).toBeNull();
    expect(await verify(token, aggregated)).toBeNull();
    expect(await verify(token, foreign)).toBeNull();
    expect(await verify(`${token}x`, endpoint)).toBeNull();

    const audit = await apiClient(sb.url)("GET", "/api/v1/audit?action=gateway.oauth_granted", undefined, { cookie: ada.cookie });
    expect(audit.status).toBe(200);
    expect(audit.body.items[0]).toMatchObject({ action: "gateway.oauth_granted", target: { type: "oauth_client", id: host.info!.client_id, name: "Test <Host>" } });
  });

  it("gives the aggregated endpoint's token to every server of its workspace, and no other", async () => {
    const { host } = await connect(aggregated);
    const token = host.saved!.access_token;
    expect((await verify(token, aggregated))?.resource).toBe(aggregated);
    expect((await verify(token, endpoint))?.resource).toBe(aggregated);
    expect((await verify(token, sibling))?.resource).toBe(aggregated);
    expect(await verify(token, foreign)).toBeNull();
    // The aggregated endpoint takes it (this workspace offers no server yet: nothing to list)…
    const client = await gatewayHost(aggregated, token, { name: "oauth-aggregate" });
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
    // …and not a token bound to one server.
    const single = (await connect(endpoint)).host.saved!.access_token;
    const refused = await fetch(aggregated, {
      method: "POST",
      headers: { authorization: `Bearer ${single}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refreshes, and honours revocation of the access token and of the refresh token", async () => {
    const { host } = await connect(endpoint);
    const first = host.saved!;
    expect(await auth(host, { serverUrl: endpoint })).toBe("AUTHORIZED"); // the SDK refreshes with the stored refresh token
    const second = host.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await verify(second.access_token, endpoint))?.userId).toBe(ada.userId);

    const revoke = (token: string, hint: string) =>
      fetch(`${sb.url}/api/auth/oauth2/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, token_type_hint: hint, client_id: host.info!.client_id }),
      });
    expect((await revoke(first.access_token, "access_token")).status).toBe(200);
    expect(await verify(first.access_token, endpoint)).toBeNull();

    expect((await revoke(second.refresh_token!, "refresh_token")).status).toBe(200);
    // This process verified that token above and keeps the verdict 10 s; the console's instances are told
    // to forget through the instance channel, which this process is not on, so it forgets by itself.
    forget("gatewayTokenCache");
    expect(await verify(second.access_token, endpoint)).toBeNull(); // issued with that refresh token: revoked with it
    const refresh = await fetch(`${sb.url}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: second.refresh_token!, client_id: host.info!.client_id, resource: endpoint }),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("disconnects a host for good: its tokens stop working and it must ask for consent again", async () => {
    const { host } = await connect(endpoint);
    const grant = await verify(host.saved!.access_token, endpoint);
    expect(grant).not.toBeNull();
    await revokeGrants({ userId: grant!.userId, clientId: grant!.clientId });
    expect(await verify(host.saved!.access_token, endpoint)).toBeNull();
    const refresh = await fetch(`${sb.url}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: host.saved!.refresh_token!, client_id: host.info!.client_id }),
    });
    expect(refresh.status).toBe(400);
    host.saved = undefined; // the host drops the dead tokens and authorizes again with the same registration
    expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");
    const again = await get(host.authorizationUrl!.href, ada.cookie);
    expect(new URL(again.headers.get("location")!, sb.url).pathname).toBe("/oauth/consent");
  });
});
