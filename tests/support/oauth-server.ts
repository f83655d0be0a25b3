import http from "node:http";
import Provider from "oidc-provider";

export interface AuthorizationServer {
  issuer: string;
  /** The account the next interaction signs in as (the test's stand-in for a person typing a password). */
  account: string;
  /** Requests the server received ("POST /token", …), for checks such as "revocation was called". */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A real OAuth 2.1 / OpenID provider (`oidc-provider`) on 127.0.0.1: dynamic registration, PKCE
 * required, refresh tokens with rotation, revocation, resource indicators issuing JWT access tokens
 * whose audience is the MCP server. Its login and consent are automatic: our interaction route
 * signs in `account` and grants every scope asked for.
 */
export async function startAuthorizationServer(opts: { resource: string; accessTokenTtl?: number; scopes: string[]; clients?: Record<string, unknown>[] }): Promise<AuthorizationServer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const state: AuthorizationServer = { issuer, account: "alice", requests: [], close: async () => undefined };
  const provider = new Provider(issuer, {
    // Pre-registered clients (machine clients for the client_credentials grant among them).
    clients: opts.clients ?? [],
    scopes: ["openid", "offline_access", ...opts.scopes],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => opts.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== opts.resource) throw new Error(`unknown resource ${indicator}`);
          return { scope: opts.scopes.join(" "), audience: opts.resource, accessTokenFormat: "jwt", accessTokenTTL: opts.accessTokenTtl ?? 3600 };
        },
      },
    },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed("refresh_token"),
    clientBasedCORS: () => true,
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();
  server.on("request", async (req, res) => {
    state.requests.push(`${req.method} ${new URL(req.url ?? "/", issuer).pathname}`);
    if (!req.url?.startsWith("/interaction/")) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === "login") {
        await provider.interactionFinished(req, res, { login: { accountId: state.account } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
