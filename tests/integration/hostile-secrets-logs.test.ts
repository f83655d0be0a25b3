import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { expectNoSecret as noSecretIn, runCollection, secretScene } from "../support/secret-scene";
import { startFixture, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/** The environment's secret, put into the `tell` tool's message by a collection step. */
const ENV_SECRET = "env-apikey-3c58e1a94f";
/** The server's stored header value, put into a message by a member's own call. */
const HEADER_SECRET = "stored-header-7b02d6";
const SECRETS = [ENV_SECRET, HEADER_SECRET];

/**
 * Secrets a server quotes back while a call runs: the fixture's `tell` tool logs its message
 * (`notifications/message`) and asks about it by elicitation and sampling; the task fixture's
 * `slow-job` quotes its note in the task's status message. A member runs them with an environment
 * secret (from a collection run) and with the server's stored header value; a viewer then reads
 * the session's log lines, the interactions and the task calls and finds neither secret, and
 * neither is stored in clear.
 */
describe("hostile: secrets stay masked in log lines, interactions and task status messages a call causes", () => {
  let sb: ConsoleHandle;
  let fixture: RunningServer;
  let tasks: RunningServer;
  let owner: Api;
  let member: Api;
  let viewer: Api;
  let viewerToken = "";
  let serverId = "";
  let sessionId = "";

  const raw = async (path: string) => {
    const res = await fetch(`${sb.url}${path}`, { headers: { authorization: `Bearer ${viewerToken}` } });
    expect(res.status, path).toBe(200);
    return res.text();
  };

  const expectNoSecret = (text: string, where: string) => noSecretIn(SECRETS, text, where);

  beforeAll(async () => {
    [sb, fixture, tasks] = await Promise.all([startConsole(), startFixture("secret-echo-server.ts"), startFixture("task-server.ts")]);
    ({ owner, member, viewer, viewerToken } = await secretScene(sb));

    const server = await owner("POST", "/api/v1/servers", { name: "tellers", url: fixture.url, headers: { "X-Api-Key": HEADER_SECRET }, timeoutMs: 20_000 });
    expect(server.status, JSON.stringify(server.body)).toBe(201);
    serverId = server.body.server.id;
    const env = await owner("POST", "/api/v1/environments", { name: "prod", secrets: { apiKey: ENV_SECRET } });
    expect(env.status, JSON.stringify(env.body)).toBe(201);
    const run = await runCollection({
      api: member,
      name: "telling steps",
      environment: "prod",
      steps: [{ serverId, method: "tools/call", name: "tell", arguments: { message: "key={{apiKey}}" } }],
    });
    expect(run.status, JSON.stringify(run)).toBe("passed");

    const call = await member("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "tell", arguments: { message: `header=${HEADER_SECRET}` } });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    expect(call.body.call.status, JSON.stringify(call.body)).toBe("ok");
    sessionId = call.body.call.sessionId;
    expect(sessionId).toBeTruthy();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), fixture?.stop(), tasks?.stop()]);
  });

  it("shows a viewer the session's log lines with the secrets masked", async () => {
    let items: { data: unknown }[] = [];
    await waitFor(async () => {
      items = (await viewer("GET", `/api/v1/sessions/${sessionId}/logs`)).body.items;
      return items.length >= 2;
    }, 10_000, () => JSON.stringify(items));
    expect(items.map((i) => i.data)).toEqual(expect.arrayContaining(["received message=key=[redacted]", "received message=header=[redacted]"]));
    expectNoSecret(await raw(`/api/v1/sessions/${sessionId}/logs`), "GET /api/v1/sessions/:id/logs");
    // Nothing to find by searching for the secret either.
    const search = JSON.parse(await raw(`/api/v1/sessions/${sessionId}/logs?q=${ENV_SECRET}`));
    expect(search.items).toEqual([]);
  });

  it("shows a viewer the interactions with the secrets masked", async () => {
    let items: { id: string; kind: string; request: unknown }[] = [];
    await waitFor(async () => {
      items = (await viewer("GET", `/api/v1/interactions?serverId=${serverId}`)).body.items;
      return items.length >= 4;
    }, 10_000, () => JSON.stringify(items));
    const requests = JSON.stringify(items.map((i) => i.request));
    expect(requests).toContain("Confirm key=[redacted]?");
    expect(requests).toContain("Summarise header=[redacted]");
    // The form asks for a secret-named field: its schema stays whole, only values are masked.
    expect(requests).toContain('"apiKey":{"type":"string"');
    expectNoSecret(await raw(`/api/v1/interactions?serverId=${serverId}`), "GET /api/v1/interactions");
    for (const { id } of items) expectNoSecret(await raw(`/api/v1/interactions/${id}`), `GET /api/v1/interactions/${id}`);
  });

  it("shows a viewer a task's status message with the secrets masked", async () => {
    const server = await owner("POST", "/api/v1/servers", { name: "jobs", url: tasks.url, headers: { "X-Api-Key": HEADER_SECRET }, timeoutMs: 20_000 });
    expect(server.status, JSON.stringify(server.body)).toBe(201);
    const jobsId = server.body.server.id;
    const run = await runCollection({
      api: member,
      name: "a noted job",
      environment: "prod",
      timeoutMs: 30_000,
      steps: [{ serverId: jobsId, method: "tools/call", name: "slow-job", arguments: { ms: 60_000, note: "key={{apiKey}}" } }],
    });
    const direct = await member("POST", `/api/v1/servers/${jobsId}/tools/call`, { name: "slow-job", arguments: { ms: 60_000, note: `header=${HEADER_SECRET}` } });
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    const callIds = [run.steps[0].callId as string, direct.body.call.id as string];
    // Followed while it works: each poll records the status message again.
    for (const id of callIds) {
      let call: any;
      await waitFor(async () => {
        call = (await viewer("GET", `/api/v1/calls/${id}`)).body.call;
        return call.status === "pending" && /\(.*\[redacted\]\)/.test(call.task?.statusMessage ?? "");
      }, 10_000, () => JSON.stringify(call));
      expectNoSecret(await raw(`/api/v1/calls/${id}`), `GET /api/v1/calls/${id}`);
    }
    expectNoSecret(JSON.stringify(await sb.db.all("SELECT task_status_message FROM call")), "the database");
    for (const id of callIds) expect((await member("POST", `/api/v1/calls/${id}/task/cancel`)).status).toBeLessThan(300);
  });

  it("stores no secret in clear in log lines or interactions", async () => {
    const logs = await sb.db.all("SELECT logger, data FROM session_log");
    const interactions = await sb.db.all("SELECT request, response, outcome FROM interaction");
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(interactions.length).toBeGreaterThanOrEqual(4);
    expectNoSecret(JSON.stringify([logs, interactions]), "the database");
  });
});
