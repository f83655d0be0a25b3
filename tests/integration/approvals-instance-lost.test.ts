import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";

type Api = ReturnType<typeof apiClient>;
interface ApprovalJson {
  id: string;
  callId: string;
  name: string;
  status: string;
  reason: string | null;
  params: unknown;
}

/**
 * A held call lives in the instance that holds it. When that instance is killed, the survivors
 * mark the call interrupted (lib/core/instances); its approval must then end `expired`, saying
 * why, instead of an "approved" that nothing would send.
 */
describe("an approval whose holding instance was killed", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-approvals-lost-"));
  const env = { SWITCHBOARD_HEARTBEAT_MS: "300", SWITCHBOARD_MONITORS: "off" };
  let a: ConsoleHandle;
  let b: ConsoleHandle;
  let ownerB: Api;
  let memberA: Api;
  let demoId: string;

  beforeAll(async () => {
    a = await startConsole({ dataDir, env });
    const setup = await setupOwner(a.url);
    const workspaceId = setup.workspace.id as string;
    const memberToken = await insertMember(a.db, { workspaceId, userId: "u-mo", name: "Mo Member", email: "mo@example.com", role: "member" });
    memberA = apiClient(a.url, memberToken);
    const rule = await setup.api("POST", "/api/v1/policy-rules", { name: "hello needs an OK", effect: "approve", tools: ["hello"], timeoutSeconds: 600 });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    demoId = (await setup.api("POST", "/api/v1/servers/demo")).body.server.id;
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    ownerB = apiClient(b.url, setup.token);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop({ crash: true }).catch(() => undefined);
  });

  it("ends expired with the reason; approving it answers 409 and nothing runs", async () => {
    const held = ["first", "second"].map((who) => memberA("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: { name: who } }).catch(() => null));
    let pending: ApprovalJson[] = [];
    await waitFor(async () => {
      pending = (await ownerB("GET", "/api/v1/approvals?status=pending")).body.items as ApprovalJson[];
      return pending.length === 2;
    }, 20_000);
    const [one, two] = pending;

    await a.stop({ crash: true });
    await Promise.all(held);
    // The survivor's heartbeat marks the killed instance's pending calls interrupted.
    await waitFor(async () => {
      const calls = (await ownerB("GET", "/api/v1/calls?limit=20")).body.items as { id: string; status: string }[];
      return [one.callId, two.callId].every((id) => calls.find((c) => c.id === id)?.status === "interrupted");
    }, 15_000);

    const approved = await ownerB("POST", `/api/v1/approvals/${one.id}/approve`, {});
    expect(approved.status, JSON.stringify(approved.body)).toBe(409);
    expect(approved.body.error.message).toMatch(/already expired: Nobody waits for this call any more: it ended interrupted/);
    expect(approved.body.error.details).toEqual({ status: "expired" });

    // The other one is no longer listed as waiting, and reads expired with the same reason.
    expect((await ownerB("GET", "/api/v1/approvals?status=pending")).body.items).toEqual([]);
    const decided = (await ownerB("GET", "/api/v1/approvals?status=decided")).body.items as ApprovalJson[];
    expect(decided.map((d) => [d.id, d.status]).sort()).toEqual([[one.id, "expired"], [two.id, "expired"]].sort());
    expect(decided.find((d) => d.id === two.id)?.reason).toMatch(/Nobody waits for this call any more: .*rule "hello needs an OK"/);

    // Nothing ran: the calls stay interrupted, without a result.
    const call = (await ownerB("GET", `/api/v1/calls/${one.callId}`)).body.call;
    expect(call).toMatchObject({ status: "interrupted", result: null });
  });
});
