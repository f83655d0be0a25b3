import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";

/**
 * A rule's rate limit counts in the database (lib/domains/policies/limits.ts), so one count holds
 * across instances: on PostgreSQL the second console of the same database refuses the call the
 * first one's calls used up. On SQLite, one console: the API's 429 with Retry-After and the
 * refused call recorded as denied. A gateway exposure's per-minute limit counts in the same table.
 */
describe("a rule's rate limit", () => {
  let a: ConsoleHandle;
  let b: ConsoleHandle | null = null;
  let owner: Awaited<ReturnType<typeof setupOwner>>;

  beforeAll(async () => {
    a = await startConsole();
    if (onPostgres) b = await startConsole({ databaseUrl: a.databaseUrl, join: true });
    owner = await setupOwner(a.url);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("refuses the call past the limit with 429 and Retry-After, counted once for every instance", async () => {
    const { api, token } = owner;
    const rule = await api("POST", "/api/v1/policy-rules", { name: "two hellos a minute", effect: "allow", tools: ["hello"], rateLimit: { calls: 2, perSeconds: 60 } });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    const demoId = (await api("POST", "/api/v1/servers/demo")).body.server.id as string;
    const hello = (on: ReturnType<typeof apiClient>, name: string) => on("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: { name } });

    expect((await hello(api, "one")).status).toBe(200);
    // The second call goes through the other instance where there is one: the count is shared.
    const other = b ? apiClient(b.url, token) : api;
    expect((await hello(other, "two")).status).toBe(200);
    const res = await fetch(`${b?.url ?? a.url}/api/v1/servers/${demoId}/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "hello", arguments: { name: "three" } }),
    });
    const over = { status: res.status, body: await res.json() };
    expect(over.status, JSON.stringify(over.body)).toBe(429);
    expect(over.body.error).toMatchObject({ code: "too_many_requests", details: { ruleId: rule.body.rule.id } });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.body.error.message).toContain('"two hellos a minute"');

    const denied = await api("GET", `/api/v1/calls/${over.body.error.details.callId}`);
    expect(denied.body.call).toMatchObject({ status: "denied", policyRuleId: rule.body.rule.id });
  });

  it("a gateway exposure's calls per minute are one budget across instances, answered as a JSON-RPC error with retryAfter", async () => {
    const { api, workspace } = owner;
    const demo = (await api("POST", "/api/v1/servers/demo")).body.server as { id: string; name: string };
    expect((await api("PUT", `/api/v1/servers/${demo.id}/exposure`, { enabled: true, rateLimitPerMinute: 2 })).status).toBe(200);
    const hostToken = (await api("POST", "/api/v1/tokens", { name: "busy host", scopes: ["gateway"] })).body.secret as string;
    const path = `/mcp/${encodeURIComponent(workspace.slug as string)}/${encodeURIComponent(demo.name)}`;
    const first = await gatewayHost(`${a.url}${path}`, hostToken);
    const second = await gatewayHost(`${(b ?? a).url}${path}`, hostToken);
    try {
      await first.callTool({ name: "add", arguments: { a: 1, b: 1 } });
      await second.callTool({ name: "add", arguments: { a: 1, b: 2 } });
      const over = await second.callTool({ name: "add", arguments: { a: 1, b: 3 } }).then(
        () => null,
        (err: { code?: number; message: string; data?: { retryAfter?: number } }) => err,
      );
      expect(over?.message).toMatch(/Rate limit: 2 calls per minute through this gateway; retry in \d+ s/);
      expect(over?.data?.retryAfter).toBeGreaterThan(0);
    } finally {
      await Promise.allSettled([first.close(), second.close()]);
    }
  });
});
