import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { config } from "@/lib/core/config";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { instanceId } from "@/lib/core/instances";
import { takeCallRoom } from "@/lib/domains/calls/server";
import { MAX_COUNT, MAX_DURATION_SECONDS, type LoadTestConfig, type LoadTestDto, type LoadTestSummary } from "./index";
import { planLoadTest } from "./plan";
import { abortHere, loadTestLeaseMs, runLoadTest } from "./runner";
import type { CreateLoadTest } from "./schemas";
import * as q from "./queries";
import { toLoadTestDto, toLoadTestSummary } from "./dto";

export { instanceLoadTests, reapExpiredLoadTests } from "./queries";

const unprocessable = (message: string) => new SwitchboardError("unprocessable", message);

/** The bounds of a load test (422 naming the one passed). */
export function checkBounds(input: CreateLoadTest): LoadTestConfig {
  const maxUsers = config().loadTestMaxUsers;
  if (input.users < 1 || input.users > maxUsers) throw unprocessable(`users: between 1 and ${maxUsers} (SWITCHBOARD_LOAD_TEST_MAX_USERS)`);
  if (!input.collectionId === !input.call) throw unprocessable("Give a collectionId or a call, not both");
  if ((input.durationSeconds === undefined) === (input.count === undefined)) throw unprocessable("Give durationSeconds or count, not both");
  if (input.durationSeconds !== undefined && !(input.durationSeconds > 0 && input.durationSeconds <= MAX_DURATION_SECONDS)) throw unprocessable(`durationSeconds: more than 0, at most ${MAX_DURATION_SECONDS} (10 minutes)`);
  if (input.count !== undefined && !(input.count >= 1 && input.count <= MAX_COUNT)) throw unprocessable(`count: between 1 and ${MAX_COUNT}`);
  if (!(input.rampUpSeconds >= 0 && input.rampUpSeconds <= MAX_DURATION_SECONDS)) throw unprocessable(`rampUpSeconds: between 0 and ${MAX_DURATION_SECONDS}`);
  if (!(input.thinkMs >= 0 && input.thinkMs <= 60_000)) throw unprocessable("thinkMs: between 0 and 60000");
  return {
    ...(input.collectionId ? { collectionId: input.collectionId } : { call: { serverId: input.call!.serverId, tool: input.call!.tool, arguments: input.call!.arguments } }),
    users: input.users,
    ...(input.count === undefined ? { durationSeconds: input.durationSeconds } : { count: input.count }),
    rampUpSeconds: input.rampUpSeconds,
    thinkMs: input.thinkMs,
  };
}

/**
 * Starts a load test on this instance and answers at once with its row (`running`). One test runs
 * per workspace at a time (409); a workspace whose history is full (SWITCHBOARD_MAX_CALLS) cannot
 * keep its sample (409). Its calls are counted, a sample recorded (origin `load-test`).
 */
export async function startLoadTest(principal: Principal, input: CreateLoadTest): Promise<LoadTestDto> {
  const testConfig = checkBounds(input);
  const plan = await planLoadTest(principal, input);
  if (await q.findRunningLoadTest({ workspaceId: principal.workspaceId })) throw new SwitchboardError("conflict", "A load test is running in this workspace: wait for it to end or cancel it");
  // Checked again once inserted: two starts at once both pass the check above.
  await takeCallRoom(principal.workspaceId);
  const steps = plan.steps.map((s) => ({ index: s.index, label: s.label, calls: 0, errors: 0, p50: null, p95: null, p99: null }));
  const row = await q.insertLoadTest({
    data: {
      workspaceId: principal.workspaceId,
      config: JSON.stringify(testConfig),
      collectionId: plan.collectionId,
      serverId: plan.serverId,
      label: plan.label,
      steps: JSON.stringify(steps),
      startedById: principal.userId,
      startedByName: principal.userName,
      instanceId: instanceId(),
      leaseUntil: new Date(Date.now() + loadTestLeaseMs()),
    },
  });
  const busy = () => new SwitchboardError("conflict", "A load test is running in this workspace: wait for it to end or cancel it");
  if (await q.findEarlierRunning({ workspaceId: principal.workspaceId, id: row.id, startedAt: row.startedAt })) {
    await q.deleteLoadTest({ id: row.id });
    throw busy();
  }
  await audit(principal, { action: "load_test.started", target: { type: "load_test", id: row.id, name: row.label }, details: { ...testConfig, call: undefined, serverId: plan.serverId } }).catch((err: unknown) =>
    console.error(`[load-tests] ${row.id} could not be audited`, err),
  );
  publish(principal.workspaceId, { type: "load_test", loadTestId: row.id, status: "running" });
  void runLoadTest({ id: row.id, principal, plan, config: testConfig }).catch((err: unknown) => console.error(`[load-tests] ${row.id} failed`, err));
  return toLoadTestDto(row);
}

export async function getLoadTest(principal: Principal, id: string): Promise<LoadTestDto> {
  const row = await q.findLoadTest({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Load test");
  return toLoadTestDto(row);
}

export async function listLoadTests(principal: Principal, { limit }: { limit: number }): Promise<LoadTestSummary[]> {
  return (await q.listLoadTests({ workspaceId: principal.workspaceId, limit })).map(toLoadTestSummary);
}

/** Cancels a running test (its runner stops at once here, within a second on another instance); a finished one is 409. */
export async function cancelLoadTest(principal: Principal, id: string): Promise<LoadTestDto> {
  const row = await q.findLoadTest({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Load test");
  if (!(await q.cancelLoadTest({ workspaceId: principal.workspaceId, id }))) throw new SwitchboardError("conflict", `The load test is ${row.status}, not running`);
  abortHere(id);
  await audit(principal, { action: "load_test.cancelled", target: { type: "load_test", id, name: row.label } }).catch(() => undefined);
  publish(principal.workspaceId, { type: "load_test", loadTestId: id, status: "cancelled" });
  return getLoadTest(principal, id);
}
