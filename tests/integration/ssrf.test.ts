import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAddressRefusal, parseAllowList } from "@/lib/core/net";
import { policyFetch } from "@/lib/core/net/server";
import { apiClient, type ConsoleHandle, setupOwner, startConsole } from "../support/console";
import { type RunningServer, startEverything } from "../support/servers";

// Every address here is loopback. The console is forced to the policy of a console serving a
// network, so loopback stands in for the internal addresses it must refuse; private, link-local
// and metadata addresses are covered by the classifier's unit tests, never by connections.
const SECRET = "SECRET-BODY-4f1c";
const RULE = /Blocked by the outbound network policy/;

let sb: ConsoleHandle;
let api: Awaited<ReturnType<typeof setupOwner>>["api"];
let everything: RunningServer;
let legacy: RunningServer;
let fixture: http.Server;
let sink: http.Server;
let fixturePort: number;
let sinkPort: number;
let sinkHits = 0;

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  // 127.0.0.2 counts whatever reaches it: nothing must.
  sink = http.createServer((_req, res) => {
    sinkHits++;
    res.writeHead(200, { "content-type": "application/json" }).end(`{"leak":"${SECRET}"}`);
  });
  sinkPort = await listen(sink, "127.0.0.2");
  fixture = http.createServer((req, res) => {
    if (req.url?.startsWith("/redirect")) res.writeHead(307, { location: `http://127.0.0.2:${sinkPort}/mcp` }).end();
    else if (req.url?.startsWith("/.well-known/oauth-protected-resource")) {
      // Protected resource metadata naming an authorization server at a refused address.
      const resource = `http://127.0.0.1:${fixturePort}/oauth`;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource, authorization_servers: [`http://127.0.0.2:${sinkPort}`] }));
    }
    else res.writeHead(500, { "content-type": "text/plain" }).end(`internal detail: ${SECRET}`);
  });
  fixturePort = await listen(fixture, "127.0.0.1");
  [everything, legacy, sb] = await Promise.all([
    startEverything("streamableHttp"),
    startEverything("sse"),
    // The operator lets workspaces choose loopback; each test's workspace list decides.
    startConsole({ env: { SWITCHBOARD_NETWORK_POLICY: "public", SWITCHBOARD_ALLOWED_NETWORKS: "127.0.0.0/8,::1,localhost" } }),
  ]);
  ({ api } = await setupOwner(sb.url));
});

afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop(), legacy?.stop()]);
  fixture?.close();
  sink?.close();
});

const FORMS = ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "localhost"];
/** IPv6 forms carrying 127.0.0.1 (IPv4-compatible, translated, NAT64, 6to4, ISATAP, Teredo): refused before any connection. */
const EMBEDDED = ["[::127.0.0.1]", "[::ffff:0:127.0.0.1]", "[64:ff9b::127.0.0.1]", "[2002:7f00:1::1]", "[::5efe:127.0.0.1]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]"];

async function allow(list: string[]) {
  const res = await api("PATCH", "/api/v1/workspace", { allowedNetworks: list });
  expect(res.status).toBe(200);
  expect(res.body.workspace.allowedNetworks).toEqual(list);
}

function expectRefused(res: { status: number; body: any }, what: string) {
  expect(res.status, what).toBe(403);
  expect(res.body.error.message, what).toMatch(RULE);
  expect(res.body.error.message, what).toMatch(/loopback address/);
  expect(JSON.stringify(res.body), what).not.toContain(SECRET);
}

describe("a console serving a network (policy forced to public)", () => {
  it("says so in the workspace settings and validates the allow-list", async () => {
    const settings = await api("GET", "/api/v1/workspace");
    expect(settings.body.workspace).toMatchObject({ allowedNetworks: [], network: { mode: "public", envAllowed: ["127.0.0.0/8", "::1", "localhost"] } });
    const bad = await api("PATCH", "/api/v1/workspace", { allowedNetworks: ["10.0.0.0/33"] });
    expect(bad.status).toBe(400);
  });

  it("refuses to add a server at any loopback form", async () => {
    for (const host of [...FORMS, ...EMBEDDED]) {
      expectRefused(await api("POST", "/api/v1/servers", { name: `add ${host}`, url: `http://${host}:${everything.port}/mcp` }), host);
    }
    const imported = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { local: { url: `http://[::ffff:7f00:1]:${everything.port}/mcp` } } }) });
    expect(imported.body.created).toEqual([]);
    expect(imported.body.skipped[0].reason).toMatch(RULE);
  });

  it("refuses to connect at connect time, when the address was allowed at creation and no longer is", async () => {
    await allow(["127.0.0.1/32", "::1", "localhost"]);
    const ids: Record<string, string> = {};
    for (const host of FORMS) {
      const res = await api("POST", "/api/v1/servers", { name: `connect ${host}`, url: `http://${host}:${everything.port}/mcp` });
      expect(res.status, host).toBe(201);
      ids[host] = res.body.server.id;
    }
    await allow([]);
    for (const host of FORMS) {
      const res = await api("POST", `/api/v1/servers/${ids[host]}/connect`);
      expectRefused(res, host);
      expect(res.body.error.details).toMatchObject({ kind: "blocked" });
    }
    // A call fails the same way, recorded with the rule.
    const call = await api("POST", `/api/v1/servers/${ids["[::ffff:7f00:1]"]}/tools/call`, { name: "echo", arguments: { message: "hi" } });
    expect(JSON.stringify(call.body)).toMatch(RULE);
  });

  it("allow-listing 127.0.0.1/32 makes the fixtures reachable (Streamable HTTP and legacy HTTP+SSE)", async () => {
    await allow(["127.0.0.1/32"]);
    for (const [name, url] of [["everything", everything.url], ["everything-sse", legacy.url]]) {
      const created = await api("POST", "/api/v1/servers", { name, url });
      expect(created.status, name).toBe(201);
      const connected = await api("POST", `/api/v1/servers/${created.body.server.id}/connect`);
      expect(connected.status, name).toBe(200);
      const call = await api("POST", `/api/v1/servers/${created.body.server.id}/tools/call`, { name: "echo", arguments: { message: "through the policy" } });
      expect(call.body.call.status, name).toBe("ok");
    }
  });

  it("refuses a redirect from the allow-listed fixture to 127.0.0.2, which is never contacted", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "redirector", url: `http://127.0.0.1:${fixturePort}/redirect`, transport: "streamable-http" });
    expect(created.status).toBe(201);
    const res = await api("POST", `/api/v1/servers/${created.body.server.id}/connect`);
    expectRefused(res, "redirect");
    expect(res.body.error.message).toMatch(/^Redirect refused: .*127\.0\.0\.2 is a loopback address/);
    expect(sinkHits).toBe(0);
  });

  it("refuses an OAuth authorization server at a refused address named by the allow-listed server's metadata", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "oauth", url: `http://127.0.0.1:${fixturePort}/oauth`, authMode: "oauth-per-member" });
    expect(created.status).toBe(201);
    const signIn = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const res = await apiClient(sb.url)("POST", `/api/v1/servers/${created.body.server.id}/oauth/authorize`, {}, { cookie });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(RULE);
    expect(res.body.error.message).toMatch(/127\.0\.0\.2 is a loopback address/);
    expect(sinkHits).toBe(0);
  });

  it("never quotes the body of an internal server's error", async () => {
    const created = await api("POST", "/api/v1/servers", { name: "failing", url: `http://127.0.0.1:${fixturePort}/fail`, transport: "streamable-http" });
    const res = await api("POST", `/api/v1/servers/${created.body.server.id}/connect`);
    expect(res.status).toBe(502);
    expect(res.body.error.message).toMatch(/HTTP 500/);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  it("the icon proxy refuses the same forms, allow-listed or not (icons are held to the public policy)", async () => {
    await allow([]);
    for (const host of [...FORMS, "[::]", "0.0.0.0"]) {
      const res = await api("GET", `/api/v1/icons?src=${encodeURIComponent(`https://${host}/i.png`)}`);
      expect(res.status, host).toBe(403);
      expect(res.body.error.message, host).toMatch(RULE);
    }
  });
});

describe("the pinned dispatcher", () => {
  it("checks every redirect hop it follows itself", async () => {
    const outbound = policyFetch({ mode: "public", allowed: parseAllowList(["127.0.0.1/32"]) });
    const err = await outbound(`http://127.0.0.1:${fixturePort}/redirect`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(findAddressRefusal(err)?.rule).toBe("loopback");
    expect(sinkHits).toBe(0);
    expect(outbound.isInternal(`http://127.0.0.1:${fixturePort}/`)).toBe(true);
  });

  it("refuses a name that resolves to loopback before connecting", async () => {
    const outbound = policyFetch({ mode: "public", allowed: [] });
    const err = await outbound(`http://localhost:${sinkPort}/`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(findAddressRefusal(err)?.message).toMatch(/localhost resolves to a loopback address/);
    expect(sinkHits).toBe(0);
  });
});
