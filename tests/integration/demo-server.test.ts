import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

describe("the built-in demo server", () => {
  let sb: ConsoleHandle;
  let api: Api;
  let demoId: string;

  beforeAll(async () => {
    // The public policy refuses loopback and private addresses: the demo server uses no network at all.
    sb = await startConsole({ env: { SWITCHBOARD_NETWORK_POLICY: "public" } });
    ({ api } = await setupOwner(sb.url));
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("is added with one request, once per workspace", async () => {
    const added = await api("POST", "/api/v1/servers/demo");
    expect(added.status).toBe(201);
    expect(added.body.server).toMatchObject({ name: "demo", kind: "demo", url: null });
    demoId = added.body.server.id;
    const again = await api("POST", "/api/v1/servers/demo");
    expect(again.status).toBe(200);
    expect(again.body.server.id).toBe(demoId);
    expect((await api("GET", "/api/v1/servers")).body.items.map((s: { id: string }) => s.id)).toEqual([demoId]);
  });

  it("connects in-process and lists tools, resources and prompts", async () => {
    const connected = await api("POST", `/api/v1/servers/${demoId}/connect`);
    expect(connected.status).toBe(200);
    expect(connected.body.session).toMatchObject({ status: "connected", transport: "memory", serverInfo: { name: "switchboard-demo" } });
    const tools = (await api("GET", `/api/v1/servers/${demoId}/tools`)).body.items.map((t: { name: string }) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["hello", "roll-dice", "dice-app", "add"]));
    const resources = (await api("GET", `/api/v1/servers/${demoId}/resources`)).body.items.map((r: { uri: string }) => r.uri);
    expect(resources).toEqual(expect.arrayContaining(["demo://readme", "demo://dice-rules.json"]));
    const prompts = (await api("GET", `/api/v1/servers/${demoId}/prompts`)).body.items.map((p: { name: string }) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(["welcome", "roll-for"]));
  });

  it("runs its tools, and the calls are recorded in history", async () => {
    const hello = await api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: { name: "Ada" } });
    expect(hello.status).toBe(200);
    expect(hello.body.call).toMatchObject({ status: "ok", origin: "user" });
    expect(hello.body.call.result.content[0].text).toMatch(/^Hello, Ada!/);

    const dice = await api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "roll-dice", arguments: { count: 2, sides: 6 } });
    expect(dice.body.call.status).toBe("ok");
    expect(dice.body.call.result._meta["io.switchboard/card"]).toMatchObject({ version: 1, title: expect.stringMatching(/^2d6: \d+$/) });

    const history = (await api("GET", `/api/v1/calls?serverId=${demoId}`)).body.items;
    expect(history.map((c: { name: string }) => c.name)).toEqual(["roll-dice", "hello"]);
    expect(history[0]).toMatchObject({ status: "ok", userName: "Ada Owner" });

    const invalid = await api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "roll-dice", arguments: { count: "many" } });
    expect(invalid.status).toBe(422);
  });

  it("hosts its MCP App: the UI resource is an mcp-app page, and the app may roll the dice", async () => {
    const hosting = (await api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "dice-app", arguments: {} })).body.call;
    const app = await api("GET", `/api/v1/calls/${hosting.id}/app`);
    expect(app.body).toMatchObject({ reason: null, app: { resourceUri: "ui://switchboard-demo/dice.html" } });
    const read = await api("POST", `/api/v1/calls/${hosting.id}/app/resources/read`, { uri: "ui://switchboard-demo/dice.html" });
    expect(read.body.call).toMatchObject({ status: "ok", origin: "app", parentCallId: hosting.id });
    expect(read.body.call.result.contents[0].mimeType).toBe("text/html;profile=mcp-app");
    const fromApp = await api("POST", `/api/v1/calls/${hosting.id}/app/tools/call`, { name: "roll-dice", arguments: { count: 3 } });
    expect(fromApp.body.call).toMatchObject({ status: "ok", origin: "app", serverId: demoId });
    expect(fromApp.body.call.result.structuredContent.rolls).toHaveLength(3);
  });

  it("reads resources and gets prompts", async () => {
    const readme = await api("POST", `/api/v1/servers/${demoId}/resources/read`, { uri: "demo://readme" });
    expect(readme.body.call.result.contents[0].text).toContain("The Switchboard demo server");
    const prompt = await api("POST", `/api/v1/servers/${demoId}/prompts/get`, { name: "roll-for", arguments: { decision: "pizza" } });
    expect(prompt.body.call.result.messages[0].content.text).toContain("pizza");
  });

  it("is left out of the mcpServers export, and its URL cannot be set", async () => {
    expect((await api("GET", "/api/v1/servers/export")).body.mcpServers).toEqual({});
    const patched = await api("PATCH", `/api/v1/servers/${demoId}`, { url: "http://127.0.0.1:1/mcp" });
    expect(patched.status).toBe(400);
  });
});

describe("the theme, remembered per person", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;

  beforeAll(async () => {
    sb = await startConsole();
    owner = await setupOwner(sb.url);
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("is null until chosen, saved by PATCH /api/v1/me, and answered at sign-in", async () => {
    expect((await owner.api("GET", "/api/v1/me")).body.user.theme).toBeNull();
    expect((await owner.api("PATCH", "/api/v1/me", { theme: "dark" })).body).toEqual({ theme: "dark" });
    expect((await owner.api("GET", "/api/v1/me")).body.user.theme).toBe("dark");
    const bad = await owner.api("PATCH", "/api/v1/me", { theme: "purple" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("bad_request");

    const signIn = await apiClient(sb.url)("POST", "/api/auth/sign-in/email", { email: owner.email, password: owner.password });
    expect(signIn.body.user.theme).toBe("dark");
  });

  it("reaches a signed-in page load in the sb-theme cookie, which the page's first script applies before next-themes reads the browser's choice", async () => {
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const page = await fetch(`${sb.url}/servers`, { headers: { cookie } });
    expect(page.headers.getSetCookie().some((c) => c.startsWith("sb-theme=dark;"))).toBe(true);
    expect(page.headers.get("cache-control")).toContain("private");
    const html = await page.text();
    const script = html.indexOf('localStorage.setItem("theme",m[1])');
    expect(script).toBeGreaterThan(-1);
    expect(html).toContain("sb-theme=(light|dark|system)");
    // Anonymous: no theme cookie set, and a stale one is deleted.
    const anonymous = await fetch(`${sb.url}/sign-in`, { headers: { cookie: "sb-theme=dark" } });
    expect(anonymous.headers.getSetCookie().some((c) => c.startsWith("sb-theme=dark"))).toBe(false);
    expect(anonymous.headers.getSetCookie().some((c) => c.startsWith("sb-theme=;"))).toBe(true);
  });
});
