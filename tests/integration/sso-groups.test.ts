import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { ssoSignIn as signInThroughIdp, startSsoIdp, type SsoIdp } from "../support/sso-idp";

/** Policy rules on IdP groups: the groups claim of a member's ID token from their last SSO sign-in. */
describe("policy rules on IdP groups", () => {
  let sb: ConsoleHandle;
  let idp: SsoIdp;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let serverId: string;
  let ruleId: string;
  const people: Record<string, { cookie: string; userId: string }> = {};

  /** A person's SSO sign-in: their session cookie and user id. */
  async function ssoSignIn(account: string): Promise<{ cookie: string; userId: string }> {
    const cookie = await signInThroughIdp(sb.url, idp, account);
    const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    return { cookie, userId: me.body.user.id };
  }

  const callAdd = (who: string) => apiClient(sb.url)("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "add", arguments: { a: 1, b: 2 } }, { cookie: people[who]!.cookie });
  const toolNames = async (who: string) => {
    const res = await apiClient(sb.url)("GET", `/api/v1/servers/${serverId}/tools`, undefined, { cookie: people[who]!.cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.items as { name: string }[]).map((t) => t.name);
  };
  const tester = async (userId: string) => {
    const res = await owner.api("POST", "/api/v1/policy-rules/test", { principal: { userId }, serverId, tool: "add", arguments: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { decision: string; ruleId: string | null };
  };

  beforeAll(async () => {
    idp = await startSsoIdp();
    idp.people.set("carol", { email: "carol@example.com", name: "Carol", groups: ["payments"] });
    idp.people.set("dave", { email: "dave@example.com", name: "Dave", groups: ["support"] });
    sb = await startConsole({
      env: {
        SWITCHBOARD_SSO_ISSUER: idp.issuer,
        SWITCHBOARD_SSO_CLIENT_ID: idp.clientId,
        SWITCHBOARD_SSO_CLIENT_SECRET: idp.clientSecret,
        SWITCHBOARD_SSO_NAME: "Acme IdP",
        SWITCHBOARD_SSO_DOMAIN: "example.com",
      },
    });
    owner = await setupOwner(sb.url);
    expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "member" })).status).toBe(200);
    people.carol = await ssoSignIn("carol");
    people.dave = await ssoSignIn("dave");
    serverId = (await owner.api("POST", "/api/v1/servers/demo")).body.server.id;
    expect((await owner.api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBe(200);
    expect(await toolNames("carol")).toEqual(expect.arrayContaining(["hello", "add"]));
    const created = await owner.api("POST", "/api/v1/policy-rules", { name: "payments may not add", effect: "deny", tools: ["add"], principals: { groups: ["payments"] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    ruleId = created.body.rule.id;
  });

  afterAll(async () => {
    await sb?.stop();
    await idp?.close();
  });

  it("denies a member of the rule's group, not a member of another", async () => {
    const refused = await callAdd("carol");
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "policy_denied", details: { ruleId } });
    const allowed = await callAdd("dave");
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.call?.status, JSON.stringify(allowed.body)).toBe("ok");
  });

  it("lists a tool only to those the rule lets call it", async () => {
    const carols = await toolNames("carol");
    expect(carols).toContain("hello");
    expect(carols).not.toContain("add");
    expect(await toolNames("dave")).toContain("add");
  });

  it("the tester takes a member's IdP groups when the principal names none", async () => {
    expect(await tester(people.carol!.userId)).toMatchObject({ decision: "deny", ruleId });
    expect(await tester(people.dave!.userId)).toMatchObject({ decision: "allow", ruleId: null });
    // Groups given explicitly are the ones tested.
    const res = await owner.api("POST", "/api/v1/policy-rules/test", { principal: { userId: people.dave!.userId, groups: ["payments"] }, serverId, tool: "add", arguments: {} });
    expect(res.body).toMatchObject({ decision: "deny", ruleId });
  });

  it("an ID token handed over through the API gives no groups and cannot replace a sign-in's", async () => {
    const forged = (iss: string, groups: string[]) => {
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
      return `${part({ alg: "RS256" })}.${part({ iss, sub: "x", exp: Math.floor(Date.now() / 1000) + 3600, groups })}.c2ln`;
    };
    const me = apiClient(sb.url);
    const replaced = await me("PUT", "/api/v1/me/identity-tokens", { issuer: idp.issuer, idToken: forged(idp.issuer, ["support"]) }, { cookie: people.carol!.cookie });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(409);
    const other = "https://other-idp.example.com";
    const added = await me("PUT", "/api/v1/me/identity-tokens", { issuer: other, idToken: forged(other, ["payments"]) }, { cookie: people.dave!.cookie });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await callAdd("carol")).status).toBe(403);
    expect((await callAdd("dave")).status).toBe(200);
    expect(await tester(people.dave!.userId)).toMatchObject({ decision: "allow" });
  });

  it("forgetting the sign-in's ID token does not shed a group: it ends the sessions it started", async () => {
    expect((await callAdd("carol")).status).toBe(403);
    const forgot = await apiClient(sb.url)("DELETE", "/api/v1/me/identity-tokens", undefined, { cookie: people.carol!.cookie });
    expect(forgot.status, JSON.stringify(forgot.body)).toBe(200);
    expect(forgot.body.deleted).toBe(1);
    // Without groups the deny rule would let her through: her sign-in has ended instead.
    const after = await callAdd("carol");
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/identity provider has ended: sign in again/);
    people.carol = await ssoSignIn("carol");
    expect((await callAdd("carol")).status).toBe(403);
  });

  it("groups change at the member's next sign-in", async () => {
    expect((await callAdd("carol")).status).toBe(403);
    idp.people.set("carol", { email: "carol@example.com", name: "Carol", groups: ["support"] });
    people.carol = await ssoSignIn("carol");
    const allowed = await callAdd("carol");
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(await toolNames("carol")).toContain("add");
    expect(await tester(people.carol.userId)).toMatchObject({ decision: "allow" });
  });
});
