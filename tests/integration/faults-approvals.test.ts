import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startPostgres, type PostgresServer } from "../support/postgres";

type Api = ReturnType<typeof apiClient>;

/**
 * A call held for approval re-reads its approval while it waits (lib/domains/approvals/hold.ts):
 * the database going away meanwhile does not end the wait, and the decision made once it is back
 * releases the call. Its own PostgreSQL server, stopped mid-wait.
 */
describe.skipIf(!onPostgres)("a held call while the database is away", () => {
  let pg: PostgresServer;
  let sb: ConsoleHandle;
  let owner: Api;
  let member: Api;
  let demoId: string;

  beforeAll(async () => {
    pg = await startPostgres();
    const databaseUrl = await pg.createMigratedDatabase(`sb_faults_approvals_${process.pid}`);
    sb = await startConsole({ databaseUrl, join: true, env: { SWITCHBOARD_MONITORS: "off" } });
    const setup = await setupOwner(sb.url);
    owner = setup.api;
    member = apiClient(sb.url, await insertMember(sb.db, { workspaceId: setup.workspace.id as string, userId: "u-mo", name: "Mo Member", email: "mo@example.com", role: "member" }));
    const rule = await owner("POST", "/api/v1/policy-rules", { name: "hello needs an OK", effect: "approve", tools: ["hello"], timeoutSeconds: 120 });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    demoId = (await owner("POST", "/api/v1/servers/demo")).body.server.id;
  });
  afterAll(async () => {
    await sb?.stop({ crash: true }).catch(() => undefined);
    await pg?.stop();
  });

  it("keeps waiting through the outage; approved after it, the call is sent and completes", async () => {
    const call = member("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: { name: "through the outage" } });
    let approvalId = "";
    await waitFor(async () => {
      const items = (await owner("GET", "/api/v1/approvals?status=pending")).body.items as { id: string; name: string }[];
      approvalId = items.find((a) => a.name === "hello")?.id ?? "";
      return approvalId !== "";
    }, 20_000);

    await pg.stop({ keep: true });
    const stoppedAt = Date.now();
    try {
      // The console sees the outage (its API answers 503), and the outage lasts past two of the
      // held call's re-reads (every 1.5 s): the length of the fault, not a wait for the console.
      await waitFor(async () => (await owner("GET", "/api/v1/approvals?status=pending")).status === 503 && Date.now() - stoppedAt > 3_500, 20_000);
    } finally {
      await pg.start();
    }
    await waitFor(async () => (await owner("GET", "/api/v1/approvals?status=pending")).status === 200, 30_000);

    const approved = await owner("POST", `/api/v1/approvals/${approvalId}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const done = await call;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.call.status).toBe("ok");
    expect(JSON.stringify(done.body.call.result)).toContain("through the outage");
  });
});
