import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { openEvents } from "../support/events";

type Api = ReturnType<typeof apiClient>;
type Answer = { status: number; body: any };

const SECRETS = ["hunter2-SECRET-1", "sk-live-SECRET-2"];
const VIRTUAL = "/api/v1/virtual-servers";

/** A request whose path is sent exactly as written (fetch would resolve "..", as a browser does). */
function send(base: string, method: string, path: string, token: string, body?: string) {
  return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
    // A GET accepting an event stream would open the legacy SSE transport, which never ends.
    const headers = { authorization: `Bearer ${token}`, accept: method === "GET" ? "application/json" : "application/json, text/event-stream", "content-type": "application/json" };
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), text }));
    });
    req.on("error", reject);
    req.path = path;
    req.end(body);
  });
}

/** Refused naming the field: 422 `unprocessable` or 409 `conflict`, `details.path` the field's. */
function expectRefused(res: Answer, path: (string | number)[], what: string) {
  expect([409, 422], `${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`).toContain(res.status);
  expect(res.body.error.details.path, what).toEqual(path);
  expect(res.body.error.message.startsWith(`${path.join(".")}: `) || res.status === 409, res.body.error.message).toBe(true);
}

/**
 * Hostile input to approvals and virtual servers (docs/governance.md): secrets in a held call's
 * arguments stay masked for approvers and on the live stream, denial reasons too long or holding
 * markup, virtual server names built to escape the gateway's path or pass for another, tools from
 * elsewhere, and hostile names at the gateway itself.
 */
describe("hostile input: approvals and virtual servers", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let api: Api;
  let member: Api;
  let demoId = "";
  let otherServerId = "";
  let gatewayToken = "";

  beforeAll(async () => {
    sb = await startConsole();
    owner = await setupOwner(sb.url);
    api = owner.api;
    member = apiClient(sb.url, await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: "u-mo", name: "Mo Member", email: "mo@example.com", role: "member" }));
    demoId = (await api("POST", "/api/v1/servers/demo")).body.server.id;
    expect((await api("POST", `/api/v1/servers/${demoId}/connect`)).status).toBe(200);
    // A server of another workspace of the same owner.
    const other = await api("POST", "/api/v1/workspaces", { name: "Elsewhere" });
    expect(other.status).toBe(201);
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const minted = await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "elsewhere", scope: "full" }, { cookie, "x-workspace-id": other.body.workspace.id });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    otherServerId = (await apiClient(sb.url, minted.body.secret)("POST", "/api/v1/servers/demo")).body.server.id;
    expect(otherServerId).toEqual(expect.any(String));
    gatewayToken = (await api("POST", "/api/v1/tokens", { name: "gateway", scopes: ["gateway"] })).body.secret;
    expect(gatewayToken).toEqual(expect.any(String));
  }, 120_000);
  afterAll(async () => {
    await sb?.stop();
  });

  it("masks a held call's secrets for approvers and on the live stream; hostile denial reasons are refused or kept as text", async () => {
    const rule = await api("POST", "/api/v1/policy-rules", { name: "hello needs an OK", effect: "approve", tools: ["hello"], timeoutSeconds: 600 });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const events = await openEvents(sb.url, owner.token);
    try {
      const args = { name: "x", password: SECRETS[0], api_key: SECRETS[1] };
      const held = member("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: args });
      let approval: any;
      await waitFor(async () => {
        const list = await api("GET", "/api/v1/approvals?status=pending");
        expect(list.status).toBe(200);
        for (const secret of SECRETS) expect(JSON.stringify(list.body)).not.toContain(secret);
        approval = (list.body.items as any[]).find((a) => a.name === "hello");
        return approval !== undefined;
      }, 20_000);
      expect(approval.params).toMatchObject({ name: "x", password: "[redacted]", api_key: "[redacted]" });
      await events.next((e) => e.type === "approval" && e.approvalId === approval.id && e.status === "pending");

      const huge = await api("POST", `/api/v1/approvals/${approval.id}/deny`, { reason: "r".repeat(100_000) });
      expect([400, 413, 422], JSON.stringify(huge.body).slice(0, 200)).toContain(huge.status);
      expect((await api("GET", "/api/v1/approvals?status=pending")).body.items.map((a: { id: string }) => a.id)).toContain(approval.id);

      const markup = '<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"';
      const res = await fetch(`${sb.url}/api/v1/approvals/${approval.id}/deny`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json", accept: "text/html" },
        body: JSON.stringify({ reason: markup }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const denied = (await res.json()) as { approval: { status: string; reason: string } };
      expect(denied.approval).toMatchObject({ status: "denied", reason: markup });
      const answer = await held;
      expect(answer.status).toBe(403);
      expect(answer.body.error.message).toContain(markup);
      await events.next((e) => e.type === "approval" && e.approvalId === approval.id && e.status === "denied");

      const decided = await api("GET", "/api/v1/approvals?status=all");
      expect((decided.body.items as any[]).find((a) => a.id === approval.id)).toMatchObject({ status: "denied", reason: markup, params: { password: "[redacted]" } });
      const seen = JSON.stringify([decided.body, events.events, answer.body, denied]);
      for (const secret of SECRETS) expect(seen).not.toContain(secret);
    } finally {
      events.close();
      await api("DELETE", `/api/v1/policy-rules/${rule.body.rule.id}`);
    }
  }, 60_000);

  it("refuses hostile virtual server names with 422 or 409 naming the field, or keeps them exactly with an encoded path", async () => {
    const tools = [{ serverId: demoId, tool: "hello" }];
    const demoName = (await api("GET", `/api/v1/servers/${demoId}`)).body.server.name as string;
    // Refused: empty, over 100 characters, control characters, a server's name, a dot segment (no request reaches it).
    for (const name of ["", "   ", "v".repeat(1000), "a\u0000b", "tab\there", "line\nbreak", demoName, ` ${demoName} `, "..", ".", " .. "]) {
      expectRefused(await api("POST", VIRTUAL, { name, tools }), ["name"], JSON.stringify(name).slice(0, 40));
    }
    // Anything else is a path segment: kept exactly, its endpoint URL-encoded, or refused naming the field.
    const kept: string[] = [];
    for (const name of ["a/b", "%2F..%2F", "...", "has spaces", "UPPER", "\u0440\u0430\u0443\u0440\u0430l", "\u202Eevil", `${demoName.toUpperCase()}`]) {
      const res = await api("POST", VIRTUAL, { name, tools });
      if (res.status === 201) {
        expect(res.body.virtualServer.name).toBe(name);
        expect(res.body.virtualServer.path).toBe(`/mcp/${owner.workspace.slug}/${encodeURIComponent(name)}`);
        // The path handed out reaches it: a GET without a session is the endpoint's own 405, not a 404 or a refused path.
        const reached = await send(sb.url, "GET", res.body.virtualServer.path, gatewayToken);
        expect(reached.status, `${JSON.stringify(name)} at ${res.body.virtualServer.path}: ${reached.text.slice(0, 200)}`).toBe(405);
        kept.push(res.body.virtualServer.id);
      } else expectRefused(res, ["name"], JSON.stringify(name));
    }
    try {
      const list = await api("GET", VIRTUAL);
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(kept.length);
      expect(kept.length).toBeGreaterThan(1);
      // A second one of the same name, or a rename onto it or onto a dot segment: refused naming the field.
      const [first, last] = [list.body.items[0], list.body.items.at(-1)];
      expectRefused(await api("POST", VIRTUAL, { name: first.name, tools }), ["name"], "taken");
      expectRefused(await api("PATCH", `${VIRTUAL}/${last.id}`, { name: first.name }), ["name"], "renamed onto another");
      expectRefused(await api("PATCH", `${VIRTUAL}/${last.id}`, { name: ".." }), ["name"], "renamed to ..");
    } finally {
      for (const id of kept) expect((await api("DELETE", `${VIRTUAL}/${id}`)).status).toBe(204);
    }
  });

  it("refuses tools of another workspace or of no server, colliding names and huge descriptions", async () => {
    const bad: [unknown[], (string | number)[]][] = [
      [[{ serverId: otherServerId, tool: "hello" }], ["tools", 0, "serverId"]],
      [[{ serverId: demoId, tool: "hello" }, { serverId: "srv-missing", tool: "add" }], ["tools", 1, "serverId"]],
      [[{ serverId: "' OR 1=1 --", tool: "hello" }], ["tools", 0, "serverId"]],
      [[{ serverId: demoId, tool: "hello" }, { serverId: demoId, tool: "add", as: "hello" }], ["tools", 1, "as"]],
      [[{ serverId: demoId, tool: "add", as: "sum" }, { serverId: demoId, tool: "hello", as: "sum" }], ["tools", 1, "as"]],
      [[{ serverId: demoId, tool: "hello", as: "../hello" }], ["tools", 0, "as"]],
      [[{ serverId: demoId, tool: "hello", as: "" }], ["tools", 0, "as"]],
      [Array.from({ length: 201 }, (_, i) => ({ serverId: demoId, tool: "hello", as: `t${i}` })), ["tools"]],
    ];
    for (const [tools, path] of bad) expectRefused(await api("POST", VIRTUAL, { name: "hostile-tools", tools }), path, JSON.stringify(path));
    const big = await api("POST", VIRTUAL, { name: "hostile-big", tools: [{ serverId: demoId, tool: "hello", description: "d".repeat(1024 * 1024) }] });
    expect([400, 413, 422], JSON.stringify(big.body).slice(0, 200)).toContain(big.status);
    const many = await api("POST", VIRTUAL, { name: "hostile-many", tools: Array.from({ length: 5000 }, (_, i) => ({ serverId: demoId, tool: `t${i}` })) });
    expect([400, 413, 422]).toContain(many.status);
    // The same checks guard PATCH.
    const created = await api("POST", VIRTUAL, { name: "hostile-ok", tools: [{ serverId: demoId, tool: "hello" }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectRefused(await api("PATCH", `${VIRTUAL}/${created.body.virtualServer.id}`, { tools: [{ serverId: otherServerId, tool: "hello" }] }), ["tools", 0, "serverId"], "PATCH");
    expect((await api("GET", VIRTUAL)).body.items.map((v: { name: string }) => v.name)).toEqual(["hostile-ok"]);
    expect((await api("DELETE", `${VIRTUAL}/${created.body.virtualServer.id}`)).status).toBe(204);
  });

  it("answers hostile virtual names at the gateway with a 4xx in JSON, never 500", async () => {
    const slug = owner.workspace.slug as string;
    const names = ["..", ".", "%2E%2E", "%2F..%2F..%2Fapi%2Fv1%2Fworkspace", "%00", "a%00b", "%ff", "x".repeat(5000), encodeURIComponent("' OR '1'='1"), encodeURIComponent("\u202Eevil"), "__proto__", "constructor"];
    for (const name of names) {
      for (const method of ["GET", "POST"]) {
        const res = await send(sb.url, method, `/mcp/${slug}/${name}`, gatewayToken, method === "POST" ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) : undefined);
        const what = `${method} ${name.slice(0, 60)} → ${res.status} ${res.type}: ${res.text.slice(0, 200)}`;
        expect([400, 404], what).toContain(res.status);
        expect(res.type, what).toMatch(/json/);
        expect(() => JSON.parse(res.text), what).not.toThrow();
      }
    }
    expect((await api("GET", VIRTUAL)).status).toBe(200);
  });
});
