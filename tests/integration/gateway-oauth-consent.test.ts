import { auth } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type ConsoleHandle } from "../support/console";
import { answerConsent, navigate } from "../support/oauth-browser";
import { connectHost, consentView as consentViewAt, Host, setUpGatewayOAuth, type GatewayOAuthWorld } from "./gateway-oauth-support";

describe("the console as OAuth authorization server of its gateway endpoints: sign-in, consent and refusals", () => {
  let sb: ConsoleHandle;
  let verify: GatewayOAuthWorld["verify"];
  let ada: GatewayOAuthWorld["ada"];
  let bob: GatewayOAuthWorld["bob"];
  let endpoint: string;
  let sibling: string;
  let foreign: string;

  const get = navigate;
  const consent = (consentUrl: string, cookie: string, accept: boolean) => answerConsent(sb.url, consentUrl, cookie, accept);
  const connect = (resource: string, who: { cookie: string }) => connectHost(sb.url, resource, who.cookie);
  const consentView = (consentUrl: string, cookie: string) => consentViewAt(sb.url, consentUrl, cookie);

  beforeAll(async () => {
    sb = await startConsole();
    ({ verify, ada, bob, endpoint, sibling, foreign } = await setUpGatewayOAuth(sb));
  });

  afterAll(async () => {
    await sb?.stop();
  });

  it("sends a signed-out person to the sign-in page and back to the same authorization", async () => {
    const host = new Host();
    expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");
    const toLogin = await get(host.authorizationUrl!.href);
    expect(toLogin.status).toBe(302);
    const login = new URL(toLogin.headers.get("location")!, sb.url);
    expect(login.pathname).toBe("/oauth/sign-in");
    const toSignIn = await get(login.href);
    expect(toSignIn.status).toBe(303);
    const signIn = new URL(toSignIn.headers.get("location")!, sb.url);
    expect(signIn.pathname).toBe("/sign-in");
    const next = signIn.searchParams.get("next")!;
    expect(next.startsWith("/api/auth/oauth2/authorize?")).toBe(true);
    // After signing in, the browser goes to `next`: the same request, now answered with the consent page.
    const resumed = await get(`${sb.url}${next}`, ada.cookie);
    expect(resumed.status).toBe(302);
    expect(new URL(resumed.headers.get("location")!, sb.url).pathname).toBe("/oauth/consent");
  });

  it("returns access_denied to the application when the person denies", async () => {
    const host = new Host();
    await auth(host, { serverUrl: sibling });
    const toConsent = await get(host.authorizationUrl!.href, ada.cookie);
    const answer = await consent(toConsent.headers.get("location")!, ada.cookie, false);
    expect(answer.status).toBe(200);
    const back = new URL(answer.body.url!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("refuses a person who is not a member of the endpoint's workspace, and lets a viewer consent", async () => {
    const host = new Host();
    await auth(host, { serverUrl: foreign });
    const toConsent = await get(host.authorizationUrl!.href, bob.cookie);
    const consentUrl = toConsent.headers.get("location")!;
    const page = await get(new URL(consentUrl, sb.url).href, bob.cookie);
    expect(page.status).toBe(200);
    expect(await consentView(consentUrl, bob.cookie)).toMatchObject({ state: "ready", endpoints: [{ role: null, workspace: { name: "Other team" } }] });
    const answer = await consent(consentUrl, bob.cookie, true);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe("access_denied");

    const viewerUrl = await connectPage(endpoint, bob.cookie);
    expect(await consentView(viewerUrl, bob.cookie)).toMatchObject({ state: "ready", endpoints: [{ role: "viewer" }], user: { name: "Bob" } });
    expect(await consentView(viewerUrl, "")).toEqual({ state: "signed_out" });
    const { host: viewerHost } = await connect(endpoint, bob);
    expect((await verify(viewerHost.saved!.access_token, endpoint))?.scopes).toContain("gateway");
  });

  it("requires PKCE and a gateway resource of this console", async () => {
    const host = new Host();
    await auth(host, { serverUrl: endpoint });
    const withoutPkce = new URL(host.authorizationUrl!);
    withoutPkce.searchParams.delete("code_challenge");
    withoutPkce.searchParams.delete("code_challenge_method");
    const refused = await get(withoutPkce.href, ada.cookie);
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");

    const unknown = new URL(host.authorizationUrl!);
    unknown.searchParams.set("resource", `${sb.url}/mcp/nobody/nothing`);
    expect(new URL((await get(unknown.href, ada.cookie)).headers.get("location")!).searchParams.get("error")).toBe("invalid_target");

    const elsewhere = new URL(host.authorizationUrl!);
    elsewhere.searchParams.set("resource", `http://127.0.0.2:1${new URL(endpoint).pathname}`);
    expect(new URL((await get(elsewhere.href, ada.cookie)).headers.get("location")!).searchParams.get("error")).toBe("invalid_target");

    const none = new URL(host.authorizationUrl!);
    none.searchParams.delete("resource");
    const missing = await get(none.href, ada.cookie);
    expect(missing.status).toBe(400);
  });

  /** The consent page URL for a fresh authorization of `resource` by the browser holding `cookie`. */
  async function connectPage(resource: string, cookie: string): Promise<string> {
    const host = new Host();
    await auth(host, { serverUrl: resource });
    return (await get(host.authorizationUrl!.href, cookie)).headers.get("location")!;
  }
});
