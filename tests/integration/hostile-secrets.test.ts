import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startConsole, type ConsoleHandle } from "../support/console";
import { expectNoSecret as noSecretIn, runCollection, secretScene } from "../support/secret-scene";
import { startFixture, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** The environment's secret, used in a tool name, a resource URI and an argument. */
const ENV_SECRET = "env-apikey-9d41f0c7b2";
/** The server's stored header value: sent on every request, echoed back by the `headers` tool. */
const HEADER_SECRET = "stored-header-5e8a13";
/** A secret value too short to mask as text (secret-values.ts's rule): history keeps it as it is. */
const SHORT_SECRET = "ab1";
const SECRETS = [ENV_SECRET, HEADER_SECRET];

/**
 * Secrets in every recorded field: a member runs a collection whose steps put an environment
 * secret into a tool name, a resource URI and an argument, and calls tools whose name or answer
 * carries the server's stored header value; a viewer then reads every place a call is recorded or
 * shown (history, a call, both exports, stats, the session's traffic, the run, share pages) and
 * finds neither secret. A re-run sends the real values and records them masked.
 */
describe("hostile: secrets stay masked wherever a call is recorded or shown", () => {
  let sb: ConsoleHandle;
  let fixture: RunningServer;
  let owner: Api;
  let member: Api;
  let viewer: Api;
  let viewerToken = "";
  let serverId = "";
  let runId = "";
  let callIds: string[] = [];

  const raw = (path: string) => fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${viewerToken}` } });
  const received = async () => (await (await fetch(`${fixture.baseUrl}/_received`)).json()) as { name: string; arguments?: Record<string, unknown> }[];

  const expectNoSecret = (text: string, where: string) => noSecretIn(SECRETS, text, where);

  beforeAll(async () => {
    [sb, fixture] = await Promise.all([startConsole(), startFixture("secret-echo-server.ts")]);
    ({ owner, member, viewer, viewerToken } = await secretScene(sb));

    const server = await owner("POST", "/api/v1/servers", { name: "echoes", url: fixture.url, headers: { "X-Api-Key": HEADER_SECRET }, timeoutMs: 20_000 });
    expect(server.status, JSON.stringify(server.body)).toBe(201);
    serverId = server.body.server.id;
    const env = await owner("POST", "/api/v1/environments", { name: "prod", secrets: { apiKey: ENV_SECRET, pin: SHORT_SECRET } });
    expect(env.status, JSON.stringify(env.body)).toBe(201);
    const run = await runCollection({
      api: member,
      name: "secret steps",
      environment: "prod",
      steps: [
        { serverId, method: "tools/call", name: "n-{{apiKey}}", arguments: { note: "named after the key" } },
        { serverId, method: "tools/call", name: "echo", arguments: { message: "key={{apiKey}} pin={{pin}}" } },
        { serverId, method: "resources/read", uri: "memo://{{apiKey}}/notes" },
      ],
    });
    runId = run.id;
    callIds = run.steps.map((s: { callId: string | null }) => s.callId).filter(Boolean);
    expect(callIds.length, JSON.stringify(run)).toBeGreaterThanOrEqual(2);

    // The server's stored header value in a tool's name, and in what a tool answers.
    for (const name of [`n-${HEADER_SECRET}`, "headers"]) {
      const call = await member("POST", `/api/v1/servers/${serverId}/tools/call`, { name, arguments: {} });
      expect(call.status, JSON.stringify(call.body)).toBe(200);
      callIds.push(call.body.call.id);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), fixture?.stop()]);
  });

  it("sends the real values upstream", async () => {
    const seen = await received();
    expect(seen.map((p) => p.name)).toEqual(expect.arrayContaining([`n-${ENV_SECRET}`, "echo", `n-${HEADER_SECRET}`, "headers"]));
    expect(seen.find((p) => p.name === "echo")?.arguments).toEqual({ message: `key=${ENV_SECRET} pin=${SHORT_SECRET}` });
  });

  it("re-runs with the real values and records the re-run masked", async () => {
    const before = (await received()).length;
    for (const id of callIds.slice(0, 2)) {
      const rerun = await member("POST", `/api/v1/calls/${id}/rerun`);
      expect(rerun.status, JSON.stringify(rerun.body)).toBe(200);
      expect(rerun.body.call).toMatchObject({ rerunOfId: id, status: "ok" });
      expectNoSecret(JSON.stringify(rerun.body), "the re-run's answer");
      callIds.push(rerun.body.call.id);
    }
    const again = (await received()).slice(before).map(({ name, arguments: args }) => ({ name, arguments: args }));
    expect(again).toEqual([
      { name: `n-${ENV_SECRET}`, arguments: { note: "named after the key" } },
      { name: "echo", arguments: { message: `key=${ENV_SECRET} pin=${SHORT_SECRET}` } },
    ]);
    const rerunOfName = (await viewer("GET", `/api/v1/calls/${callIds.at(-2)}`)).body.call;
    expect(rerunOfName.name).toBe("n-[redacted]");
    const rerunOfEcho = (await viewer("GET", `/api/v1/calls/${callIds.at(-1)}`)).body.call;
    expect(rerunOfEcho.params.arguments.message).toBe(`key=[redacted] pin=${SHORT_SECRET}`);
    expect(JSON.stringify(rerunOfEcho.result)).toContain("Echo: key=[redacted]");
  });

  it("shows a viewer no secret in history, calls, exports, stats or the run", async () => {
    const list = await raw("/api/v1/calls?limit=100");
    expect(list.status).toBe(200);
    const listText = await list.text();
    expectNoSecret(listText, "GET /api/v1/calls");
    expect(JSON.parse(listText).items.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["n-[redacted]", "memo://[redacted]/notes"]));
    for (const id of callIds) {
      const call = await raw(`/api/v1/calls/${id}`);
      expect(call.status).toBe(200);
      expectNoSecret(await call.text(), `GET /api/v1/calls/${id}`);
    }
    for (const format of ["csv", "ndjson"]) {
      const exported = await raw(`/api/v1/calls/export?format=${format}`);
      expect(exported.status).toBe(200);
      const text = await exported.text();
      expect(text).toContain("n-[redacted]");
      expectNoSecret(text, `the ${format} export`);
    }
    const stats = await raw("/api/v1/stats");
    expect(stats.status).toBe(200);
    const statsText = await stats.text();
    expect(statsText).toContain("n-[redacted]");
    expectNoSecret(statsText, "GET /api/v1/stats");
    const run = await raw(`/api/v1/runs/${runId}`);
    expect(run.status).toBe(200);
    expectNoSecret(await run.text(), "GET /api/v1/runs/:id");
  });

  it("shows a viewer no secret in the session's traffic, in either direction", async () => {
    const sessionIds = new Set<string>();
    for (const id of callIds) {
      const sessionId = (await viewer("GET", `/api/v1/calls/${id}`)).body.call.sessionId as string | null;
      if (sessionId) sessionIds.add(sessionId);
    }
    expect(sessionIds.size).toBeGreaterThan(0);
    for (const sessionId of sessionIds) {
      const page = await raw(`/api/v1/sessions/${sessionId}/traffic?limit=500`);
      expect(page.status).toBe(200);
      const text = await page.text();
      const bodies = (JSON.parse(text).items as { direction: string; body: string }[]).map((m) => m.body);
      expect(bodies.some((b) => b.includes("n-[redacted]"))).toBe(true);
      expectNoSecret(text, "the session's traffic");
      const exported = await raw(`/api/v1/sessions/${sessionId}/traffic?format=ndjson`);
      expectNoSecret(await exported.text(), "the traffic export");
    }
  });

  it("shows no secret on share pages of a call and of the run", async () => {
    for (const id of callIds) {
      const created = await member("POST", `/api/v1/calls/${id}/shares`, {});
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const page = await fetch(created.body.share.url, { headers: { accept: "application/json" } });
      expect(page.status).toBe(200);
      expectNoSecret(await page.text(), "a call's share page");
    }
    const shared = await member("POST", `/api/v1/runs/${runId}/share`, {});
    expect(shared.status, JSON.stringify(shared.body)).toBe(201);
    expectNoSecret(await (await fetch(shared.body.share.url, { headers: { accept: "application/json" } })).text(), "the run's share page");
  });

  it("stores no secret in clear in calls, traffic or stats", async () => {
    const rows = [
      ...(await sb.db.all("SELECT name, params, result, error, progress FROM call")),
      ...(await sb.db.all("SELECT body FROM traffic_message")),
      ...(await sb.db.all("SELECT key, name FROM call_rollup")),
    ];
    expect(rows.length).toBeGreaterThan(0);
    expectNoSecret(JSON.stringify(rows), "the database");
    // What is kept for Run again is sealed.
    const sealed = await sb.db.all<{ params_secret: string | null }>("SELECT params_secret FROM call WHERE params_secret IS NOT NULL");
    expect(sealed.length).toBeGreaterThan(0);
  });
});
