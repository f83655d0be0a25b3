import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { freePort, startFixture, type RunningServer } from "../support/servers";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];

const GREETING_URI = "ui://apps-fixture/greeting.html";

describe("MCP Apps: the sandbox origin and the app's calls through the console", () => {
  let sb: ConsoleHandle;
  let apps: RunningServer;
  let modern: RunningServer;
  let api: Api;
  let sandboxPort: number;
  let appsId: string;
  let modernId: string;
  let greetCallId: string;

  beforeAll(async () => {
    sandboxPort = await freePort();
    [sb, apps, modern] = await Promise.all([
      startConsole({ env: { SWITCHBOARD_SANDBOX_PORT: String(sandboxPort) } }),
      startFixture("apps-server.ts"),
      startFixture("modern-server.ts"),
    ]);
    ({ api } = await setupOwner(sb.url));
    appsId = (await api("POST", "/api/v1/servers", { name: "apps", url: apps.url })).body.server.id;
    modernId = (await api("POST", "/api/v1/servers", { name: "modern", url: modern.url })).body.server.id;
  });
  afterAll(async () => {
    await Promise.all([sb?.stop(), apps?.stop(), modern?.stop()]);
  });

  const callTool = async (serverId: string, name: string, args: Record<string, unknown> = {}) => {
    const res = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name, arguments: args });
    expect(res.status).toBe(200);
    return res.body.call;
  };

  it("declares the MCP Apps extension capability to servers", async () => {
    const call = await callTool(appsId, "ui-support");
    expect(JSON.parse(call.result.content[0].text)).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
  });

  it("describes a call's app with a sandbox on another origin", async () => {
    const call = await callTool(appsId, "greet", { name: "Ada" });
    greetCallId = call.id;
    const res = await api("GET", `/api/v1/calls/${call.id}/app`);
    expect(res.status).toBe(200);
    expect(res.body.reason).toBeNull();
    expect(res.body.app.resourceUri).toBe(GREETING_URI);
    expect(res.body.app.tool.name).toBe("greet");
    expect(res.body.app.sandboxUrl).toBe(`http://127.0.0.1:${sandboxPort}/sandbox`);
    expect(new URL(res.body.app.sandboxUrl).origin).not.toBe(new URL(sb.url).origin);

    const plain = await callTool(modernId, "echo", { message: "hi" });
    expect((await api("GET", `/api/v1/calls/${plain.id}/app`)).body).toEqual({ app: null, reason: null });
  });

  it("reads the UI resource for the app, recorded as an app call", async () => {
    const res = await api("POST", `/api/v1/calls/${greetCallId}/app/resources/read`, { uri: GREETING_URI });
    expect(res.status).toBe(200);
    const { call } = res.body;
    expect(call).toMatchObject({ method: "resources/read", name: GREETING_URI, origin: "app", parentCallId: greetCallId, status: "ok" });
    expect(call.result.contents[0].mimeType).toBe("text/html;profile=mcp-app");
    expect(call.result.contents[0]._meta.ui.csp.resourceDomains).toEqual([apps.baseUrl]);

    // The default history leaves the app's own reads out; asked for, they are there.
    const ids = async (query: string) => (await api("GET", `/api/v1/calls?serverId=${appsId}${query}`)).body.items.map((c: { id: string }) => c.id);
    expect(await ids("")).not.toContain(call.id);
    expect(await ids("")).toContain(greetCallId);
    expect(await ids("&origin=app")).toContain(call.id);
    expect(await ids("&origin=any")).toContain(call.id);
  });

  it("lets the app call its server's app-visible tools, recorded with origin app", async () => {
    const res = await api("POST", `/api/v1/calls/${greetCallId}/app/tools/call`, { name: "bump-counter", arguments: { by: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.call).toMatchObject({ name: "bump-counter", origin: "app", parentCallId: greetCallId, serverId: appsId, status: "ok" });
    expect(res.body.call.result.content[0].text).toBe("Counter is 2");

    const history = await api("GET", `/api/v1/calls?serverId=${appsId}&name=bump-counter`);
    expect(history.body.items[0]).toMatchObject({ origin: "app", parentCallId: greetCallId, userName: "Ada Owner" });
  });

  it("refuses model-only tools, other servers' tools and calls that host no app", async () => {
    const hidden = await api("POST", `/api/v1/calls/${greetCallId}/app/tools/call`, { name: "secret-tool" });
    expect(hidden.status).toBe(403);
    expect(hidden.body.error.message).toMatch(/not visible to apps/);

    const elsewhere = await api("POST", `/api/v1/calls/${greetCallId}/app/tools/call`, { name: "echo", arguments: { message: "x" } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.message).toMatch(/only its own server's tools/);

    const plain = await callTool(modernId, "echo", { message: "hi" });
    const noApp = await api("POST", `/api/v1/calls/${plain.id}/app/tools/call`, { name: "echo", arguments: { message: "x" } });
    expect(noApp.status).toBe(403);
    expect((await api("POST", `/api/v1/calls/nope/app/tools/call`, { name: "echo" })).status).toBe(404);

    const names = (await api("GET", `/api/v1/calls?limit=200`)).body.items.filter((c: { origin: string }) => c.origin === "app").map((c: { name: string }) => c.name);
    expect(names).not.toContain("secret-tool");
    expect(names).not.toContain("echo");
  });

  it("serves only the proxy page on the sandbox origin, with a CSP from the declared domains", async () => {
    const sandbox = `http://127.0.0.1:${sandboxPort}`;
    const csp = JSON.stringify({ resourceDomains: [apps.baseUrl, "'unsafe-eval'", "https://x.example; script-src *"], connectDomains: [] });
    const res = await fetch(`${sandbox}/sandbox?host=${encodeURIComponent(sb.url)}&csp=${encodeURIComponent(csp)}`);
    expect(res.status).toBe(200);
    const policy = res.headers.get("content-security-policy")!;
    expect(policy).toContain(`script-src 'self' 'unsafe-inline' ${apps.baseUrl};`);
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain(`frame-ancestors ${sb.url}`);
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toContain("x.example");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain('<script src="/sandbox-proxy.js">');

    expect((await fetch(`${sandbox}/sandbox-proxy.js`)).headers.get("content-type")).toMatch(/javascript/);
    expect((await fetch(`${sandbox}/api/v1/servers`)).status).toBe(404);
    expect((await fetch(`${sandbox}/sandbox?host=javascript:alert(1)`)).status).toBe(400);
    expect((await fetch(`${sandbox}/sandbox`, { method: "POST" })).status).toBe(405);
  });
});
