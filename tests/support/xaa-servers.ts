/**
 * Enterprise-managed authorization (SEP-990) on loopback, for tests: an enterprise IdP that mints
 * ID tokens and exchanges them for ID-JAGs (RFC 8693 token exchange, checking its client and the
 * ID token's signature, audience and expiry), and the MCP server's authorization server that
 * redeems an ID-JAG for a JWT access token (RFC 7523 JWT bearer, client_secret_basic) which
 * tests/fixtures/oauth-mcp-server.ts accepts. A subject in `idp.removed` is refused, as a person
 * removed at the IdP would be. With `idTokensFrom`, the exchange takes ID tokens that another
 * OpenID provider (the SSO IdP of the test) issued instead of its own.
 */
import http from "node:http";
import { createLocalJWKSet, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from "jose";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

export interface XaaServers {
  idp: { issuer: string; clientId: string; clientSecret: string; removed: Set<string>; exchanges: number; idToken(sub: string, expiresIn?: string): Promise<string> };
  as: { issuer: string; clientId: string; clientSecret: string; grants: number; accessTokenTtl: number };
  close(): Promise<void>;
}

export async function startXaaServers(opts: { resource: string; scope: string; idTokensFrom?: { issuer: string; audience: string } }): Promise<XaaServers> {
  const idpKeys = await generateKeyPair("ES256");
  const asKeys = await generateKeyPair("ES256");
  const idpJwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(idpKeys.publicKey)), alg: "ES256", kid: "idp" }] });
  const asJwk: JWK = { ...(await exportJWK(asKeys.publicKey)), alg: "ES256", kid: "as", use: "sig" };
  const servers: http.Server[] = [];
  const listen = async (handler: (req: http.IncomingMessage, body: URLSearchParams, base: string) => Promise<[number, unknown]>) => {
    const server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const [status, body] = await handler(req, new URLSearchParams(Buffer.concat(chunks).toString()), base).catch((err: Error) => [400, { error: "invalid_grant", error_description: err.message }] as [number, unknown]);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  };
  const out = {} as XaaServers;
  const path = (req: http.IncomingMessage) => new URL(req.url ?? "/", "http://x").pathname;

  const idpIssuer = await listen(async (req, body, base) => {
    if (path(req) === "/.well-known/openid-configuration") return [200, { issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, jwks_uri: `${base}/jwks`, grant_types_supported: [TOKEN_EXCHANGE], response_types_supported: ["code"], subject_types_supported: ["public"], id_token_signing_alg_values_supported: ["ES256"] }];
    if (path(req) !== "/token" || body.get("grant_type") !== TOKEN_EXCHANGE) return [400, { error: "unsupported_grant_type" }];
    if (body.get("client_id") !== out.idp.clientId || body.get("client_secret") !== out.idp.clientSecret) return [401, { error: "invalid_client" }];
    const from = opts.idTokensFrom;
    const subjectToken = body.get("subject_token") ?? "";
    const { payload } = from
      ? await jwtVerify(subjectToken, createRemoteJWKSet(new URL(`${from.issuer}/jwks`)), { issuer: from.issuer, audience: from.audience })
      : await jwtVerify(subjectToken, idpJwks, { issuer: base, audience: out.idp.clientId });
    if (out.idp.removed.has(String(payload.sub))) return [400, { error: "invalid_grant", error_description: "The user is no longer active" }];
    out.idp.exchanges++;
    const jag = await new SignJWT({ resource: body.get("resource"), client_id: out.as.clientId, scope: body.get("scope") ?? opts.scope })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt", kid: "idp" })
      .setIssuer(base).setSubject(String(payload.sub)).setAudience(body.get("audience") ?? "").setIssuedAt().setExpirationTime("5m").setJti(crypto.randomUUID())
      .sign(idpKeys.privateKey);
    return [200, { access_token: jag, issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A", expires_in: 300 }];
  });

  const asIssuer = await listen(async (req, body, base) => {
    if (path(req) === "/.well-known/oauth-authorization-server") return [200, { issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, jwks_uri: `${base}/jwks`, grant_types_supported: [JWT_BEARER], token_endpoint_auth_methods_supported: ["client_secret_basic"], response_types_supported: ["code"] }];
    if (path(req) === "/jwks") return [200, { keys: [asJwk] }];
    if (path(req) !== "/token" || body.get("grant_type") !== JWT_BEARER) return [400, { error: "unsupported_grant_type" }];
    const basic = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
    if (basic !== `${encodeURIComponent(out.as.clientId)}:${encodeURIComponent(out.as.clientSecret)}`) return [401, { error: "invalid_client" }];
    const { payload } = await jwtVerify(body.get("assertion") ?? "", idpJwks, { issuer: idpIssuer, audience: [base, `${base}/`], typ: "oauth-id-jag+jwt" });
    out.as.grants++;
    const token = await new SignJWT({ scope: String(payload.scope ?? opts.scope) })
      .setProtectedHeader({ alg: "ES256", kid: "as" })
      .setIssuer(base).setSubject(String(payload.sub)).setAudience(opts.resource).setIssuedAt().setExpirationTime(`${out.as.accessTokenTtl}s`)
      .sign(asKeys.privateKey);
    return [200, { access_token: token, token_type: "Bearer", expires_in: out.as.accessTokenTtl, scope: payload.scope }];
  });

  out.idp = {
    issuer: idpIssuer,
    clientId: "console-at-idp",
    clientSecret: "idp-secret-0123456789",
    removed: new Set(),
    exchanges: 0,
    idToken: (sub, expiresIn = "1h") =>
      new SignJWT({ email: `${sub}@example.com` }).setProtectedHeader({ alg: "ES256", kid: "idp" }).setIssuer(idpIssuer).setSubject(sub).setAudience("console-at-idp").setIssuedAt().setExpirationTime(expiresIn).sign(idpKeys.privateKey),
  };
  out.as = { issuer: asIssuer, clientId: "console-at-as", clientSecret: "as-secret-0123456789", grants: 0, accessTokenTtl: 3600 };
  out.close = async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
  };
  return out;
}
