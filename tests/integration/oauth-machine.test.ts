import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startAuthorizationServer, type AuthorizationServer } from "../support/oauth-server";

const SECRET = "machine-secret-0123456789";
const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const PUBLIC_JWK = { ...publicKey.export({ format: "jwk" }), kid: "ci-key", alg: "RS256", use: "sig" };

/** Issue 10 §2: client_credentials (client_secret_basic, client_secret_post, private_key_jwt) against a real authorization server. */
describe("machine-to-machine OAuth", () => {
  let sb: ConsoleHandle;
  let as: AuthorizationServer;
  let mcp: OAuthMcpServer;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];

  const machineClient = (id: string, method: string, extra: Record<string, unknown> = {}) => ({
    client_id: id,
    grant_types: ["client_credentials"],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: method,
    scope: TOOLS_SCOPE,
    ...extra,
  });

  beforeAll(async () => {
    mcp = await startOAuthMcpServer();
    as = await startAuthorizationServer({
      resource: mcp.url,
      scopes: [TOOLS_SCOPE],
      clients: [
        machineClient("ci-basic", "client_secret_basic", { client_secret: SECRET }),
        machineClient("ci-post", "client_secret_post", { client_secret: SECRET }),
        machineClient("ci-jwt", "private_key_jwt", { jwks: { keys: [PUBLIC_JWK] }, token_endpoint_auth_signing_alg: "RS256" }),
      ],
    });
    mcp.setIssuer(as.issuer);
    sb = await startConsole();
    ({ api } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    await sb?.stop();
    await as?.close();
    await mcp?.close();
  });

  const addServer = async (name: string, fields: Record<string, unknown>) => {
    const res = await api("POST", "/api/v1/servers", { name, url: mcp.url, authMode: "oauth-machine", oauthScope: TOOLS_SCOPE, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.server as { id: string };
  };

  it.each([
    ["client_secret_basic", "ci-basic"],
    ["client_secret_post", "ci-post"],
  ])("%s: calls a tool with no browser; the secret never comes back", async (method, clientId) => {
    const server = await addServer(`m-${clientId}`, { oauthClientAuth: method, oauthClientId: clientId, oauthClientSecret: SECRET });
    const before = as.requests.filter((r) => r === "POST /token").length;
    const call = (await api("POST", `/api/v1/servers/${server.id}/tools/call`, { name: "whoami" })).body.call;
    expect(call.status, JSON.stringify(call)).toBe("ok");
    expect(JSON.stringify(call.result)).toContain(`You are ${clientId}`);
    expect(call.credential).toEqual({ mode: "machine", userId: null, userName: clientId });
    expect(as.requests.filter((r) => r === "POST /token").length).toBe(before + 1);
    const shown = await api("GET", `/api/v1/servers/${server.id}`);
    expect(shown.body.server).toMatchObject({ authMode: "oauth-machine", oauthClientId: clientId, oauthClientAuth: method });
    expect(JSON.stringify(shown.body)).not.toContain(SECRET);
  });

  it("private_key_jwt: signs a client assertion with the pasted key", async () => {
    const server = await addServer("m-jwt", { oauthClientAuth: "private_key_jwt", oauthClientId: "ci-jwt", oauthClientSecret: PRIVATE_PEM, oauthKeyAlg: "RS256" });
    const call = (await api("POST", `/api/v1/servers/${server.id}/tools/call`, { name: "whoami" })).body.call;
    expect(call.status, JSON.stringify(call)).toBe("ok");
    expect(JSON.stringify(call.result)).toContain("You are ci-jwt");
    expect(JSON.stringify((await api("GET", `/api/v1/servers/${server.id}`)).body)).not.toContain("PRIVATE KEY");
  });

  it("a wrong secret is a clear error on the call, never a 500 or a sign-in prompt", async () => {
    const server = await addServer("m-wrong", { oauthClientAuth: "client_secret_basic", oauthClientId: "ci-basic", oauthClientSecret: "not-the-secret" });
    const res = await api("POST", `/api/v1/servers/${server.id}/tools/call`, { name: "whoami" });
    expect(res.status).toBeLessThan(500);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("sign_in_required");
    expect(text).toMatch(/invalid_client|401|unauthori[sz]ed/i);
  });

  it("refuses machine mode without its credentials", async () => {
    const res = await api("POST", "/api/v1/servers", { name: "m-incomplete", url: mcp.url, authMode: "oauth-machine", oauthClientAuth: "private_key_jwt", oauthClientId: "x" });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/oauthClientSecret \(the private key\), oauthKeyAlg/);
  });
});
