import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

/**
 * A rule's rate limit counts in the database (lib/domains/policies/limits.ts), so one count holds
 * across instances: on PostgreSQL the second console of the same database refuses the call the
 * first one's calls used up. On SQLite, one console: the API's 429 with Retry-After and the
 * refused call recorded as denied.
 */
describe("a rule's rate limit", () => {
  let a: ConsoleHandle;
  let b: ConsoleHandle | null = null;

  beforeAll(async () => {
    a = await startConsole();
    if (onPostgres) b = await startConsole({ databaseUrl: a.databaseUrl, join: true });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("refuses the call past the limit with 429 and Retry-After, counted once for every instance", async () => {
    const { api, token } = await setupOwner(a.url);
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
});
