import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_ACCESS } from "@/lib/core/access";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { apiRouteFiles, concretePath, routeKey } from "../support/routes";

const PUBLIC = new Set(Object.entries(ROUTE_ACCESS).filter(([, access]) => access === "public").map(([key]) => key));

/** Every /api/v1 route file with the methods it exports, with placeholder ids. */
function apiRoutes(): { route: string; method: string }[] {
  return apiRouteFiles()
    .filter((f) => !PUBLIC.has(routeKey(f.method, f.folder)))
    .map((f) => ({ route: concretePath(f.folder), method: f.method }));
}

describe("authentication and workspace scoping", () => {
  let sb: ConsoleHandle;
  beforeAll(async () => {
    sb = await startConsole();
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("answers 401 on every /api/v1 route without credentials", async () => {
    const anon = apiClient(sb.url);
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(15);
    for (const { route, method } of routes) {
      const res = await anon(method, route, method === "GET" || method === "DELETE" ? undefined : {});
      expect(res.status, `${method} ${route}`).toBe(401);
      expect(res.body.error.code, `${method} ${route}`).toBe("unauthorized");
    }
    const bad = apiClient(sb.url, "sb_not-a-real-token");
    expect((await bad("GET", "/api/v1/servers")).status).toBe(401);
  });

  it("runs set-up once, then refuses it", async () => {
    const anon = apiClient(sb.url);
    expect((await anon("GET", "/api/v1/setup")).body).toEqual({ needed: true, codeRequired: false });
    expect((await anon("POST", "/api/v1/setup", { name: "x" })).status).toBe(400);
    const owner = await setupOwner(sb.url);
    expect(owner.token).toMatch(/^sb_/);
    expect((await anon("GET", "/api/v1/setup")).body).toEqual({ needed: false, codeRequired: false });
    const again = await anon("POST", "/api/v1/setup", { name: "Eve", email: "eve@example.com", password: "password123" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    // Public sign-up stays closed after set-up.
    const signUp = await anon("POST", "/api/auth/sign-up/email", { name: "Eve", email: "eve@example.com", password: "password123" }, { origin: sb.url });
    expect(signUp.status).toBeGreaterThanOrEqual(400);

    const me = await owner.api("GET", "/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("ada@example.com");
    expect(me.body.workspace.name).toBe("Default");
  });

  it("keeps a second workspace from reading the first one's servers and calls", async () => {
    const anon = apiClient(sb.url);
    const signIn = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const meByCookie = await anon("GET", "/api/v1/me", undefined, { cookie });
    expect(meByCookie.status).toBe(200);
    const tokenA = (await anon("POST", "/api/v1/tokens", { name: "a" }, { cookie })).body.secret as string;
    const apiA = apiClient(sb.url, tokenA);

    const created = await apiA("POST", "/api/v1/workspaces", { name: "Second" });
    expect(created.status).toBe(201);
    const workspaceB = created.body.workspace.id as string;
    const tokenB = (await anon("POST", "/api/v1/tokens", { name: "b" }, { cookie, "x-workspace-id": workspaceB })).body.secret as string;
    const apiB = apiClient(sb.url, tokenB);
    expect((await apiB("GET", "/api/v1/me")).body.workspace.id).toBe(workspaceB);

    const server = (await apiA("POST", "/api/v1/servers", { name: "private", url: "http://127.0.0.1:2/mcp", headers: { "X-Key": "k" } })).body.server;
    // A call to an unreachable server is still recorded, so there is a call to hide.
    const call = (await apiA("POST", `/api/v1/servers/${server.id}/tools/call`, { name: "echo", arguments: {} })).body.call;
    expect(call.status).toBe("error");

    expect((await apiB("GET", "/api/v1/servers")).body.items).toEqual([]);
    for (const [method, route] of [
      ["GET", `/api/v1/servers/${server.id}`],
      ["PATCH", `/api/v1/servers/${server.id}`],
      ["DELETE", `/api/v1/servers/${server.id}`],
      ["POST", `/api/v1/servers/${server.id}/connect`],
      ["GET", `/api/v1/servers/${server.id}/tools`],
      ["POST", `/api/v1/servers/${server.id}/tools/call`],
      ["GET", `/api/v1/calls/${call.id}`],
      ["POST", `/api/v1/calls/${call.id}/rerun`],
    ] as const) {
      const res = await apiB(method, route, method === "GET" || method === "DELETE" ? undefined : method === "POST" && route.endsWith("call") ? { name: "echo" } : {});
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await apiB("GET", "/api/v1/calls")).body.items).toEqual([]);
    expect((await apiB("GET", `/api/v1/calls?serverId=${server.id}`)).body.items).toEqual([]);
    // A workspace the caller does not belong to (never joined, or removed from) is refused.
    expect((await anon("GET", "/api/v1/me", undefined, { cookie, "x-workspace-id": "nope" })).status).toBe(403);
    expect((await apiA("GET", `/api/v1/calls/${call.id}`)).status).toBe(200);
  });

  it("revokes tokens at once", async () => {
    const { api } = { api: apiClient(sb.url) };
    const signIn = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email: "ada@example.com", password: "correct horse battery" }),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const created = await api("POST", "/api/v1/tokens", { name: "short-lived" }, { cookie });
    expect(created.status).toBe(201);
    const listed = await api("GET", "/api/v1/tokens", undefined, { cookie });
    expect(listed.body.items.some((t: { id: string }) => t.id === created.body.token.id)).toBe(true);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    const withToken = apiClient(sb.url, created.body.secret);
    expect((await withToken("GET", "/api/v1/servers")).status).toBe(200);
    expect((await api("DELETE", `/api/v1/tokens/${created.body.token.id}`, undefined, { cookie })).status).toBe(204);
    expect((await withToken("GET", "/api/v1/servers")).status).toBe(401);
  });
});
