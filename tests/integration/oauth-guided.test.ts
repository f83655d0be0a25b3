import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { startOddServer, type OddMode, type OddServer } from "../fixtures/oauth-odd-server";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { consoleSession, openCallback, startServerSignIn, throughAuthorizationServer } from "../support/oauth-browser";
import { startAuthorizationServer, type AuthorizationServer } from "../support/oauth-server";

type Api = ReturnType<typeof apiClient>;
type Step = { id: string; status: string; diagnosis: string | null; found: string; exchanges: Exchange[]; params?: { name: string; value: string }[] };
type Exchange = { method: string; url: string; status: number | null; requestHeaders: Record<string, string>; requestBody: { kind: string; value: any } | null; responseBody: { kind: string; value: any } | null };

const byId = (steps: Step[]) => Object.fromEntries(steps.map((s) => [s.id, s]));

describe("guided OAuth view", () => {
  let sb: ConsoleHandle;
  let as: AuthorizationServer;
  let mcp: OAuthMcpServer;
  let odd: OddServer;
  let api: Api;
  let cookie: string;
  let serverId: string;

  async function addServer(name: string, url: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await api("POST", "/api/v1/servers", { name, url, authMode: "oauth-per-member", ...extra });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.server.id;
  }

  async function checks(id: string): Promise<Record<string, Step>> {
    const res = await api("POST", `/api/v1/servers/${id}/oauth/checks`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.kind).toBe("checks");
    return byId(res.body.steps);
  }

  async function trace(id: string) {
    const res = await apiClient(sb.url)("GET", `/api/v1/servers/${id}/oauth/trace`, undefined, { cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  beforeAll(async () => {
    mcp = await startOAuthMcpServer();
    as = await startAuthorizationServer({ resource: mcp.url, scopes: [TOOLS_SCOPE], accessTokenTtl: 20 });
    mcp.setIssuer(as.issuer);
    odd = await startOddServer();
    sb = await startConsole();
    api = (await setupOwner(sb.url)).api;
    cookie = await consoleSession(sb.url, "ada@example.com", "correct horse battery");
    serverId = await addServer("guarded", mcp.url);
  });

  afterAll(async () => {
    await sb?.stop();
    await as?.close();
    await mcp?.close();
    await odd?.close();
  });

  it("checks against a real authorization server: every discovery step passes, DCR is what would be used", async () => {
    const steps = await checks(serverId);
    expect(Object.keys(steps)).toEqual(["challenge", "resource-metadata", "as-metadata", "client", "authorize"]);
    for (const id of ["challenge", "resource-metadata", "as-metadata", "client"]) expect(steps[id]!.status, JSON.stringify(steps[id])).toBe("ok");
    expect(steps.challenge!.exchanges[0]!.status).toBe(401);
    expect(steps.challenge!.found).toContain("resource_metadata=");
    expect(steps["resource-metadata"]!.exchanges[0]!.url).toBe(`${new URL(mcp.url).origin}/.well-known/oauth-protected-resource/mcp`);
    expect(steps["as-metadata"]!.found).toContain(`issuer ${as.issuer}`);
    expect(steps.client!.found).toContain(`Dynamic Client Registration at ${as.issuer}/reg`);
    expect(steps.authorize).toMatchObject({ status: "pending" });
    expect(steps.authorize!.params).toContainEqual(expect.objectContaining({ name: "resource", value: mcp.url }));
    // Read-only: nothing was registered.
    expect(as.requests).not.toContain("POST /reg");

    // Kept for the team: a viewer's read shows the same checks.
    const kept = await trace(serverId);
    expect(kept.checks.by).toBe("Ada Owner");
    expect(kept.checks.steps).toHaveLength(5);
  });

  it("records a real sign-in, call and refresh step by step, and no secret reaches the trace", async () => {
    const started = await startServerSignIn(sb.url, serverId, cookie);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const waiting = byId((await trace(serverId)).signIn.steps);
    expect(waiting.authorize!.status).toBe("ok");
    expect(waiting.callback).toMatchObject({ status: "pending", found: "Waiting for the browser to come back" });
    const back = await throughAuthorizationServer(sb.url, started.body.authorizationUrl);
    const code = back.searchParams.get("code")!;
    expect(code).toBeTruthy();
    const done = await openCallback(back, cookie);
    expect(done.status, done.text).toBe(303);
    // The 20 s token sits inside the refresh margin: this call refreshes first.
    const call = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(call.body.call.status, JSON.stringify(call.body)).toBe("ok");

    const { signIn, refresh } = await trace(serverId);
    const steps = byId(signIn.steps);
    expect(signIn.steps.map((s: Step) => s.id)).toEqual(["resource-metadata", "as-metadata", "client", "authorize", "callback", "token"]);
    for (const step of signIn.steps as Step[]) expect(step.status, JSON.stringify(step)).toBe("ok");
    const registration = steps.client!.exchanges[0]!;
    expect(registration).toMatchObject({ method: "POST", status: 201 });
    expect(registration.responseBody!.value.client_secret).toBe("[redacted]");
    expect(steps.authorize!.params).toContainEqual(expect.objectContaining({ name: "code_challenge_method", value: "S256" }));
    expect(steps.authorize!.params).toContainEqual(expect.objectContaining({ name: "state", value: "[redacted]" }));
    const tokenRequest = steps.token!.exchanges[0]!;
    expect(tokenRequest.requestBody!.value).toMatchObject({ grant_type: "authorization_code", code: "[redacted]", code_verifier: "[redacted]" });
    expect(tokenRequest.requestHeaders.authorization).toBe("[redacted]");
    expect(tokenRequest.responseBody!.value).toMatchObject({ access_token: "[redacted]", refresh_token: "[redacted]", token_type: "DPoP" });
    expect(steps.token!.found).toContain("refresh token issued");

    expect(refresh.by).toBeNull();
    const refreshStep = byId(refresh.steps).refresh!;
    expect(refreshStep.status, JSON.stringify(refreshStep)).toBe("ok");
    expect(refreshStep.exchanges[0]!.requestBody!.value).toMatchObject({ grant_type: "refresh_token", refresh_token: "[redacted]" });

    const everything = JSON.stringify({ signIn, refresh });
    expect(everything).not.toContain(code);
    expect(everything).not.toMatch(/eyJ[\w-]{4,}\./);
    for (const token of mcp.accepted) expect(everything).not.toContain(token);
    const stored = JSON.stringify(await sb.db.all("SELECT steps FROM oauth_trace"));
    expect(stored).not.toContain(code);
    for (const token of mcp.accepted) expect(stored).not.toContain(token);
  });

  it("a refresh on a live session's 401 is recorded too, and the server's configured headers never reach the authorization server", async () => {
    // Hour-long tokens: nothing refreshes ahead of time, so the only refresh is the transport's answer to the 401.
    const mcp2 = await startOAuthMcpServer();
    const as2 = await startAuthorizationServer({ resource: mcp2.url, scopes: [TOOLS_SCOPE] });
    mcp2.setIssuer(as2.issuer);
    try {
      const id = await addServer("guarded-headers", mcp2.url, { headers: { "x-tenant": "tenant-header-value-must-not-leak" } });
      const started = await startServerSignIn(sb.url, id, cookie);
      expect((await openCallback(await throughAuthorizationServer(sb.url, started.body.authorizationUrl), cookie)).status).toBe(303);
      expect((await api("GET", `/api/v1/servers/${id}/tools`)).status).toBe(200);
      expect((await trace(id)).refresh).toBeNull();
      mcp2.control.rejectNext = 1;
      const call = await api("POST", `/api/v1/servers/${id}/tools/call`, { name: "whoami", arguments: {} });
      expect(call.body.call.status, JSON.stringify(call.body.call.error)).toBe("ok");
      const { refresh } = await trace(id);
      const step = byId(refresh.steps).refresh!;
      expect(step.status).toBe("ok");
      // A header saved for the MCP server goes to its origin only, never to the authorization server.
      expect(step.exchanges.at(-1)!.requestHeaders).not.toHaveProperty("x-tenant");
      expect(JSON.stringify(refresh)).not.toContain("tenant-header-value-must-not-leak");
    } finally {
      await as2.close();
      await mcp2.close();
    }
  });

  const diagnosed: [OddMode, string, RegExp][] = [
    ["no-registration", "client", /offers neither registration nor client metadata documents: enter a client ID/],
    ["resource-mismatch", "resource-metadata", /says it protects “https:\/\/elsewhere\.example\/mcp”, but this server's URL is/],
    ["issuer-mismatch", "as-metadata", /says its issuer is “https:\/\/someone-else\.example”.*RFC 8414 requires the two to be identical/],
    ["no-s256", "as-metadata", /does not list S256 in code_challenge_methods_supported/],
  ];
  for (const [mode, stepId, text] of diagnosed) {
    it(`diagnoses a misconfigured server in plain words: ${mode}`, async () => {
      const id = await addServer(`odd-${mode}`, odd.mcpUrl(mode));
      const steps = await checks(id);
      expect(steps[stepId]!.status).toBe("failed");
      expect(steps[stepId]!.diagnosis).toMatch(text);
      expect(steps.challenge!.status).toBe("ok");
      if (mode === "no-registration") expect(steps.client!.diagnosis).toContain(`Register ${sb.url}/api/v1/oauth/callback as the client's redirect URI`);
    });
  }

  it("a sign-in that cannot start keeps its trace, with the diagnosis on the failing step", async () => {
    const id = await addServer("odd-sign-in", odd.mcpUrl("no-registration"));
    const started = await startServerSignIn(sb.url, id, cookie);
    expect(started.status).toBe(502);
    const { signIn } = await trace(id);
    const steps = byId(signIn.steps);
    expect(steps["resource-metadata"]!.status).toBe("ok");
    expect(steps["as-metadata"]!.status).toBe("ok");
    expect(steps.client!.status).toBe("failed");
    expect(steps.client!.diagnosis).toMatch(/enter a client ID/);
    expect(steps.authorize!.status).toBe("skipped");
  });

  it("a token endpoint's invalid_grant is explained, and the pre-registered secret is masked", async () => {
    const id = await addServer("odd-grant", odd.mcpUrl("bad-grant"), { oauthClientId: "odd-pre", oauthClientSecret: "odd-pre-secret-must-not-leak" });
    const started = await startServerSignIn(sb.url, id, cookie);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const back = await throughAuthorizationServer(sb.url, started.body.authorizationUrl);
    const done = await openCallback(back, cookie);
    expect(done.status).toBe(400);
    const { signIn } = await trace(id);
    const steps = byId(signIn.steps);
    expect(steps.client!.found).toContain("Pre-registered client: odd-pre");
    expect(steps.callback!.status).toBe("ok");
    expect(steps.token!.status).toBe("failed");
    expect(steps.token!.diagnosis).toMatch(/refused the code or refresh token \(invalid_grant\).*code expired or already used/);
    const everything = JSON.stringify(signIn);
    expect(everything).not.toContain("odd-pre-secret-must-not-leak");
    expect(everything).not.toContain("odd-code-0123456789");
  });

  it("running checks needs the member role; reading them is open to viewers", async () => {
    const invited = await api("POST", "/api/v1/invitations", { email: "vera@example.com", role: "viewer" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Vera", password: "password-vera-123" }),
    });
    expect(accepted.status).toBe(200);
    const viewerCookie = accepted.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const viewer = apiClient(sb.url);
    const denied = await viewer("POST", `/api/v1/servers/${serverId}/oauth/checks`, {}, { cookie: viewerCookie });
    expect(denied.status).toBe(403);
    const read = await viewer("GET", `/api/v1/servers/${serverId}/oauth/trace`, undefined, { cookie: viewerCookie });
    expect(read.status).toBe(200);
    expect(read.body.checks.steps.length).toBeGreaterThan(0);
    // Per-member credentials: the viewer sees no one else's sign-in.
    expect(read.body.signIn).toBeNull();
  });
});
