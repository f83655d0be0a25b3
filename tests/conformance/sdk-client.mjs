// The reference client for `npm run conformance`: the bare MCP SDK v2 client, no console.
// The suite runs `node sdk-client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO set (and
// MCP_CONFORMANCE_CONTEXT for scenarios that hand the client credentials or tool calls).
import {
  Client,
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  DpopSession,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  requestJwtAuthorizationGrant,
} from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { exercise, scenarioContext } from "./scenario.mjs";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const serverUrl = process.argv[2];
const ctx = scenarioContext();
const CALLBACK = "http://localhost:3000/callback";

/** An in-memory OAuth client that plays the user: it follows the authorization redirect itself. */
class AutoConsentProvider {
  constructor({ clientInformation, clientMetadataUrl } = {}) {
    this.info = clientInformation;
    this.clientMetadataUrl = clientMetadataUrl;
    this.callback = null;
  }
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata() {
    return { client_name: "switchboard-conformance-sdk", redirect_uris: [CALLBACK], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope) {
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.info = undefined;
  }
  async dpop() {
    if (!scenario.startsWith("auth/dpop")) return undefined;
    return (this.dpopSession ??= await DpopSession.create());
  }
  async redirectToAuthorization(url) {
    const res = await fetch(url, { redirect: "manual" });
    const location = res.headers.get("location");
    if (!location) throw new Error(`No redirect from the authorization endpoint (${res.status})`);
    this.callback = new URL(location).searchParams;
  }
}

/** Workload identity (RFC 7523 JWT bearer grant): a platform-issued JWT instead of a person. */
class JwtBearerProvider extends AutoConsentProvider {
  constructor(assertion, clientId) {
    super({ clientInformation: { client_id: clientId } });
    this.assertion = assertion;
  }
  get redirectUrl() {
    return undefined;
  }
  get clientMetadata() {
    return { client_name: "switchboard-conformance-sdk", redirect_uris: [], grant_types: [JWT_BEARER], token_endpoint_auth_method: "none" };
  }
  prepareTokenRequest(scope) {
    if (this.tried) throw new Error("A JWT bearer grant is not retried");
    this.tried = true;
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: this.assertion });
    if (scope) params.set("scope", scope);
    return params;
  }
}
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

function authProvider() {
  if (ctx?.name === "auth/wif-jwt-bearer") return new JwtBearerProvider(ctx.valid_jwt, ctx.client_id);
  if (ctx?.name === "auth/client-credentials-basic") return new ClientCredentialsProvider({ clientId: ctx.client_id, clientSecret: ctx.client_secret });
  if (ctx?.name === "auth/client-credentials-jwt")
    return new PrivateKeyJwtProvider({ clientId: ctx.client_id, privateKey: ctx.private_key_pem, algorithm: ctx.signing_algorithm || "ES256" });
  if (ctx?.idp_id_token) {
    // Enterprise-managed authorization (SEP-990): ID token → ID-JAG at the IdP → access token.
    const assertion = async (c) =>
      (
        await requestJwtAuthorizationGrant({
          tokenEndpoint: ctx.idp_token_endpoint,
          audience: c.authorizationServerUrl,
          resource: c.resourceUrl,
          idToken: ctx.idp_id_token,
          clientId: ctx.idp_client_id,
          scope: c.scope,
          fetchFn: c.fetchFn,
        })
      ).jwtAuthGrant;
    return new CrossAppAccessProvider({ assertion, clientId: ctx.client_id, clientSecret: ctx.client_secret });
  }
  if (!scenario.startsWith("auth/")) return undefined;
  const clientInformation = ctx?.client_id ? { client_id: ctx.client_id, client_secret: ctx.client_secret, redirect_uris: [CALLBACK] } : undefined;
  return new AutoConsentProvider({ clientInformation, clientMetadataUrl: "https://conformance-test.local/client-metadata.json" });
}

const provider = authProvider();
let transport;
let client;

async function connect() {
  transport = new StreamableHTTPClientTransport(new URL(serverUrl), provider ? { authProvider: provider } : {});
  client = new Client(
    { name: "switchboard-conformance-sdk", version: "1.0.0" },
    { capabilities: { elicitation: { form: { applyDefaults: true } } }, versionNegotiation: { mode: "auto" } },
  );
  client.setRequestHandler("elicitation/create", async (request) => ({ action: "accept", content: answerFor(request.params) }));
  await client.connect(transport);
}

/** Accept with `{}` (the SDK fills defaults), or with `confirmed: true` when the form asks for it. */
function answerFor(params) {
  const props = params?.requestedSchema?.properties ?? {};
  return "confirmed" in props ? { confirmed: true } : {};
}

/** Runs `step`, completing an authorization (at most three times: step-up) when the server asks for one. */
async function withAuth(step) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (!(err instanceof UnauthorizedError) || !provider?.callback || attempt >= 3) throw err;
      const params = provider.callback;
      provider.callback = null;
      await transport.finishAuth(params);
      await client.close().catch(() => {});
      await connect();
    }
  }
}

await withAuth(connect);
if (scenario.startsWith("sep-2640-")) {
  const skills = new SkillsClient(client);
  const listing = await skills.list();
  // Listing is not loading: files are read only for a skill in use (no prefetch).
  if (scenario !== "sep-2640-client-no-prefetch") {
    for (const skill of listing.skills) await skills.read(skill).catch((e) => console.error(`read refused: ${e.message}`));
  }
} else {
  await exercise(scenario, ctx, {
    listTools: () => withAuth(() => client.listTools()),
    callTool: (name, args) => withAuth(() => client.callTool({ name, arguments: args })),
    listResources: () => client.listResources(),
    readResource: (uri) => client.readResource({ uri }),
    listPrompts: () => client.listPrompts(),
    getPrompt: (name) => client.getPrompt({ name }),
  });
}
await transport.terminateSession?.().catch(() => {});
await client.close();
process.exit(0);
