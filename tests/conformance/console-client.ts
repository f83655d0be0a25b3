// The console under test for `npm run conformance`: does what each scenario expects, but only
// through the console's HTTP API, as a person at the console would: add the server, connect,
// list, call, answer the server's questions (elicitation) from the workspace event stream, and
// sign in to the server in the browser when the console asks for it (the fixture authorization
// server consents by itself; its redirects are followed by hand, carrying the console's cookie).
// The runner passes the console's URL, an owner token and the owner's session cookie in SB_URL,
// SB_TOKEN and SB_COOKIE.
import { randomUUID } from "node:crypto";
import { apiClient } from "../support/console";
import { openEvents } from "../support/events";
// @ts-expect-error plain JS module shared with the bare SDK client
import { exercise, scenarioContext } from "./scenario.mjs";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const serverUrl = process.argv[2];
const base = process.env.SB_URL!;
const token = process.env.SB_TOKEN!;
const cookie = process.env.SB_COOKIE!;
const ctx = scenarioContext();
const browser = apiClient(base);
const api = (method: string, route: string, body?: unknown) => browser(method, route, body, { cookie });
/** Sign-ins (step-ups included) a person does before giving up, as the bare SDK client. */
const MAX_SIGN_INS = 3;

interface SignIn {
  oauth: "sign_in_required" | "step_up_required";
  authorizeUrl: string;
  scope?: string;
}

class SignInNeeded extends Error {
  constructor(readonly details: SignIn) {
    super(`${details.oauth}${details.scope ? ` (${details.scope})` : ""}`);
  }
}

/** A 4xx/5xx from the console becomes an error carrying its message; a sign-in request becomes SignInNeeded. */
async function ok<T = any>(method: string, route: string, body?: unknown): Promise<T> {
  const res = await api(method, route, body);
  const details = res.body?.error?.details;
  if (res.status === 502 && details?.oauth) throw new SignInNeeded(details);
  if (res.status >= 400) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body?.error ?? res.body)}`);
  return res.body as T;
}

let signIns = 0;

/** Runs `step`; when the console asks for a sign-in (or more scope), signs in in the browser and runs it again. */
async function withSignIn<T>(step: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await step();
    } catch (err) {
      if (!(err instanceof SignInNeeded) || signIns >= MAX_SIGN_INS) throw err;
      signIns++;
      await signIn(err.details);
    }
  }
}

/** What the browser does: start the sign-in, follow the authorization server's redirects, land on the console's callback. */
async function signIn(details: SignIn) {
  const { authorizationUrl } = await ok<{ authorizationUrl: string }>("POST", details.authorizeUrl, details.scope ? { scope: details.scope } : {});
  let url = new URL(authorizationUrl);
  for (let hop = 0; url.origin !== new URL(base).origin; hop++) {
    if (hop === 10) throw new Error("Too many redirects at the authorization server");
    const res = await fetch(url, { redirect: "manual" });
    const location = res.headers.get("location");
    if (!location) throw new Error(`The authorization server stopped at ${url.pathname} with ${res.status}`);
    url = new URL(location, url);
  }
  const back = await fetch(url, { redirect: "manual", headers: { cookie } });
  if (back.status !== 303) throw new Error(`The console's callback refused the sign-in (${back.status}): ${(await back.text()).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim()}`);
}

/** The same answer the bare SDK client gives: accept with `{}` (defaults), or `confirmed: true`. */
function answerFor(request: { requestedSchema?: { properties?: Record<string, unknown> } }) {
  const props = request.requestedSchema?.properties ?? {};
  return "confirmed" in props ? { confirmed: true } : {};
}

const events = await openEvents(base, token);
let stop = false;
const answering = (async () => {
  let from = 0;
  while (!stop) {
    const event = await events.next((e) => e.type === "interaction" && e.status === "pending", { from, timeoutMs: 60_000 }).catch(() => null);
    if (!event) continue;
    from = events.events.indexOf(event) + 1;
    const { interaction } = await ok(`GET`, `/api/v1/interactions/${String(event.interactionId)}`);
    const answer = interaction.kind === "sampling" ? { action: "reply", text: "ok", model: "human" } : { action: "accept", content: answerFor(interaction.request) };
    await ok("POST", `/api/v1/interactions/${interaction.id}/respond`, answer).catch((err) => console.error(String(err)));
  }
})();

// An admin adds the server with OAuth, entering the client registered for it when the scenario hands
// one out; the client_credentials scenarios get the console's machine credentials (no sign-in).
const machine = scenario.startsWith("auth/client-credentials") || scenario === "auth/wif-jwt-bearer"
  ? {
      authMode: "oauth-machine",
      oauthClientId: ctx?.client_id,
      ...(ctx?.valid_jwt
        ? { oauthClientAuth: "jwt_bearer", oauthClientSecret: ctx.valid_jwt }
        : ctx?.private_key_pem
        ? { oauthClientAuth: "private_key_jwt", oauthClientSecret: ctx.private_key_pem, oauthKeyAlg: ctx.signing_algorithm ?? "RS256" }
        : { oauthClientAuth: "client_secret_basic", oauthClientSecret: ctx?.client_secret }),
    }
  : null;
const perMember = scenario.startsWith("auth/")
  ? { authMode: "oauth-per-member", ...(ctx?.client_id ? { oauthClientId: ctx.client_id, ...(ctx.client_secret ? { oauthClientSecret: ctx.client_secret } : {}) } : {}) }
  : {};
// Enterprise-managed authorization (SEP-990): the admin names the IdP and the clients; the member
// hands over the ID token the scenario's IdP issued them (what their SSO sign-in would store).
const enterprise = ctx?.idp_id_token
  ? {
      authMode: "enterprise-managed",
      idpIssuer: ctx.idp_issuer,
      idpTokenEndpoint: ctx.idp_token_endpoint,
      idpClientId: ctx.idp_client_id,
      oauthClientId: ctx.client_id,
      oauthClientSecret: ctx.client_secret,
    }
  : null;
if (enterprise) await ok("PUT", "/api/v1/me/identity-tokens", { issuer: ctx.idp_issuer, idToken: ctx.idp_id_token });
const oauth = enterprise ?? machine ?? perMember;
const { server } = await ok("POST", "/api/v1/servers", { name: `${scenario}-${randomUUID().slice(0, 8)}`, url: serverUrl, timeoutMs: 20_000, ...oauth });
const id = server.id as string;
try {
  await withSignIn(() => ok("POST", `/api/v1/servers/${id}/connect`));
  const items = async (kind: string) => (await withSignIn(() => ok(`GET`, `/api/v1/servers/${id}/${kind}`))).items;
  await exercise(scenario, ctx, {
    listTools: async () => ({ tools: await items("tools") }),
    callTool: (name: string, args: unknown) =>
      withSignIn(async () => {
        const { call } = await ok("POST", `/api/v1/servers/${id}/tools/call`, { name, arguments: args });
        // A call recorded as failed because the server wants a (larger) sign-in asks the person for it.
        if (call.error?.oauth) throw new SignInNeeded(call.error.oauth);
        return call;
      }),
    listResources: async () => ({ resources: await items("resources") }),
    readResource: (uri: string) => withSignIn(() => ok("POST", `/api/v1/servers/${id}/resources/read`, { uri })),
    listPrompts: async () => ({ prompts: await items("prompts") }),
    getPrompt: (name: string) => withSignIn(() => ok("POST", `/api/v1/servers/${id}/prompts/get`, { name })),
  });
} finally {
  stop = true;
  await api("POST", `/api/v1/servers/${id}/disconnect`).catch(() => {});
  await api("DELETE", `/api/v1/servers/${id}`).catch(() => {});
  events.close();
  void answering;
}
process.exit(0);
