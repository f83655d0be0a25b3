import http from "node:http";
import Provider from "oidc-provider";
import { cookieOf, throughAuthorizationServer } from "./oauth-browser";

export interface SsoIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person the next sign-in is (the test's stand-in for typing a password at the IdP). */
  account: string;
  /** People by subject: their email, name and groups (the ID token's `groups`). Deleting one is removing them at the IdP. */
  people: Map<string, { email: string; name: string; groups?: string[] }>;
  /** The console's client for token exchange (SEP-990) at this IdP, which its /token serves by asking `exchangeAt`. */
  exchangeClient: { clientId: string; clientSecret: string };
  /** Where this IdP's token endpoint has ID-JAGs made (tests/support/xaa-servers.ts with idTokensFrom), with that server's client. */
  exchangeAt: { tokenEndpoint: string; clientId: string; clientSecret: string } | null;
  close(): Promise<void>;
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

/**
 * A company identity provider for SSO tests: a real OpenID provider (`oidc-provider`) on
 * 127.0.0.1 with the console as a confidential client (a native loopback client, so its redirect
 * URI matches whatever port the console got), refresh tokens, and automatic login and consent as
 * `account` (`providerIds`: the console's SSO providers it serves, for their callback URIs). A refresh for someone no longer in `people` fails, as it does for a removed user.
 */
export async function startSsoIdp({ providerIds = ["sso"] }: { providerIds?: string[] } = {}): Promise<SsoIdp> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const state: SsoIdp = {
    issuer,
    clientId: "switchboard",
    clientSecret: "idp-client-secret-0123456789",
    account: "carol",
    people: new Map(),
    exchangeClient: { clientId: "switchboard-xaa", clientSecret: "idp-xaa-secret-0123456789" },
    exchangeAt: null,
    close: async () => undefined,
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: state.clientId,
        client_secret: state.clientSecret,
        application_type: "native",
        redirect_uris: providerIds.map((id) => `http://127.0.0.1/api/auth/sso/callback/${id}`),
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: state.exchangeClient.clientId,
        client_secret: state.exchangeClient.clientSecret,
        grant_types: [TOKEN_EXCHANGE],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    scopes: ["openid", "email", "profile", "offline_access"],
    claims: { email: ["email", "email_verified"], profile: ["name", "groups"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed("refresh_token"),
    findAccount: async (_ctx: unknown, id: string) => {
      const person = state.people.get(id);
      return person ? { accountId: id, claims: async () => ({ sub: id, email: person.email, email_verified: true, name: person.name, ...(person.groups ? { groups: person.groups } : {}) }) } : undefined;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  });
  // The ID-JAG exchange at this IdP's own token endpoint, made by the xaa test IdP that trusts its ID tokens.
  const exchangeParams = ["audience", "resource", "subject_token", "subject_token_type", "requested_token_type", "scope"];
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx: { oidc: { params: Record<string, unknown> }; status: number; body: unknown }) => {
      const at = state.exchangeAt;
      if (!at) return void ((ctx.status = 400), (ctx.body = { error: "unsupported_grant_type" }));
      const body = new URLSearchParams({ grant_type: TOKEN_EXCHANGE, client_id: at.clientId, client_secret: at.clientSecret });
      for (const name of exchangeParams) if (typeof ctx.oidc.params[name] === "string") body.set(name, ctx.oidc.params[name] as string);
      const res = await fetch(at.tokenEndpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
      ctx.status = res.status;
      ctx.body = await res.json();
    },
    exchangeParams,
  );
  const callback = provider.callback();
  server.on("request", async (req, res) => {
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
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
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

/** What a browser does after "Sign in with <IdP>" as `account`: the IdP's login and consent, then the console's callback; the session cookie. */
export async function ssoSignIn(base: string, idp: SsoIdp, account: string, providerId = "sso"): Promise<string> {
  idp.account = account;
  const started = await fetch(`${base}/api/auth/sign-in/sso`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ providerId, callbackURL: "/servers" }),
  });
  const { url } = (await started.json()) as { url: string };
  // Plain errors, not a runner's expect: the browser specs import this file too.
  if (started.status !== 200) throw new Error(`SSO sign-in refused to start: ${started.status} ${url}`);
  const back = await throughAuthorizationServer(base, url);
  const landed = await fetch(back, { redirect: "manual", headers: { cookie: cookieOf(started) } });
  if (landed.status !== 302 || landed.headers.get("location") !== "/servers") {
    throw new Error(`SSO callback answered ${landed.status} to ${landed.headers.get("location")}: ${await landed.text()}`);
  }
  return cookieOf(landed);
}
