import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { instanceId } from "@/lib/core/instances";
import { refusedCallId, runCall } from "@/lib/domains/calls/server";
import { databaseInterruption, durably, holdLease, runLeaseMs } from "@/lib/domains/collections/server";
import { getServerForCall } from "@/lib/domains/servers/server";
import { compareOutcomes, unanswered } from "./compare";
import { toReplayDto } from "./dto";
import type { ReplayDto, ReplayItemStatus } from "./index";
import * as q from "./queries";
import type { StartReplay } from "./schemas";
import { selectCalls, type Selected } from "./select";

function announce(workspaceId: string, replayId: string, status: string, index: number | null): void {
  publish(workspaceId, { type: "replay", replayId, status, index });
}

/**
 * Starts a replay in this process and answers at once with it (status `running`): the selected
 * calls go one after the other to `serverId` through `runCall` (policy, outbound policy, recorded
 * with origin "replay"), each with the arguments Run again would send, and each answer is compared
 * with the recorded one. `finished` settles when the replay ends (tests and the CLI wait on the API).
 */
export async function startReplay(principal: Principal, input: StartReplay): Promise<{ replay: ReplayDto; finished: Promise<void> }> {
  const server = await getServerForCall(principal, input.serverId);
  const { source, calls } = await selectCalls(principal, input);
  const row = await q.insertReplay({
    data: {
      workspaceId: principal.workspaceId,
      serverId: server.id,
      serverName: server.name,
      source: JSON.stringify(source),
      ignore: JSON.stringify(input.ignore),
      total: calls.length,
      startedById: principal.userId,
      startedByName: principal.userName,
      instanceId: instanceId(),
    },
    items: calls.map((c, index) => ({ index, callId: c.callId, method: c.method, name: c.name })),
    leaseMs: runLeaseMs(),
  });
  const replay = (await q.findReplay({ workspaceId: principal.workspaceId, id: row.id }))!;
  const kind = Object.keys(source)[0];
  // The replay exists from here on: a failure to audit it must not leave it unstarted.
  await durably(() => audit(principal, { action: "replay.started", target: { type: "replay", id: row.id, name: server.name }, details: { serverId: server.id, source: kind, calls: calls.length, ignore: input.ignore } })).catch((err: unknown) =>
    console.error(`[replays] replay ${row.id} could not be audited`, err),
  );
  announce(principal.workspaceId, row.id, "running", null);
  const lease = holdLease({ runId: row.id, renew: q.renewLease });
  const finished = execute({ principal, replayId: row.id, serverId: server.id, calls, ignore: input.ignore, lease })
    .catch(async (err: unknown) => {
      // Its writes failed past their retries (or a bug): interrupted, or reaped by its lease if even that fails.
      console.error(`[replays] replay ${row.id} failed`, err);
      await durably(() => q.interruptReplays({ ids: [row.id] })).catch(() => undefined);
      announce(principal.workspaceId, row.id, "interrupted", null);
    })
    .finally(() => lease.release());
  return { replay: toReplayDto(replay), finished };
}

interface ItemOutcome {
  status: Exclude<ReplayItemStatus, "pending">;
  replayCallId: string | null;
  diff: string | null;
  error: string | null;
  durationMs: number | null;
  /** The console's own database (or instance) failed: the replay is interrupted. */
  interrupted?: boolean;
}

async function execute({ principal, replayId, serverId, calls, ignore, lease }: { principal: Principal; replayId: string; serverId: string; calls: Selected[]; ignore: string[]; lease: { lost(): boolean } }): Promise<void> {
  const counts = { same: 0, different: 0, errors: 0 };
  const end = async (status: string) => {
    if (await durably(() => q.updateReplay({ id: replayId, data: { status, finishedAt: new Date(), leaseUntil: null } }))) announce(principal.workspaceId, replayId, status, null);
  };
  for (const [index, call] of calls.entries()) {
    if (lease.lost()) return;
    const outcome = await replayOne(principal, serverId, call, ignore);
    if (outcome.interrupted) {
      const { status, replayCallId, diff, error, durationMs } = outcome;
      await durably(() => q.updateItem({ replayId, index, data: { status, replayCallId, diff, error, durationMs } }));
      if (await durably(() => q.interruptReplays({ ids: [replayId] }))) announce(principal.workspaceId, replayId, "interrupted", null);
      return;
    }
    const { status, replayCallId, diff, error, durationMs } = outcome;
    // A write that changed nothing: the replay was reaped (its lease ran out), it is no longer ours.
    if (!(await durably(() => q.updateItem({ replayId, index, data: { status, replayCallId, diff, error, durationMs } })))) return;
    if (status === "same") counts.same++;
    else if (status === "different") counts.different++;
    else counts.errors++;
    if (!(await durably(() => q.updateReplay({ id: replayId, data: counts })))) return;
    announce(principal.workspaceId, replayId, "running", index);
  }
  await end(counts.different || counts.errors ? "failed" : "passed");
}

async function replayOne(principal: Principal, serverId: string, call: Selected, ignore: string[]): Promise<ItemOutcome> {
  const failed = (error: string, replayCallId: string | null = null): ItemOutcome => ({ status: "error", replayCallId, diff: null, error, durationMs: null });
  const interrupted = (err: unknown): ItemOutcome | null => {
    const interruption = databaseInterruption(err);
    return interruption ? { ...failed(interruption), interrupted: true } : null;
  };
  let loaded: Awaited<ReturnType<Selected["load"]>>;
  try {
    loaded = await call.load();
  } catch (err) {
    if (err instanceof SwitchboardError && err.code === "not_found") return failed("The recorded call is gone (deleted, or past the retention period)");
    return interrupted(err) ?? failed(err instanceof Error ? err.message : String(err));
  }
  const { recorded, request } = loaded;
  const why = unanswered(recorded);
  if (why) return failed(why);
  try {
    const dto = await runCall(principal, { serverId, method: call.method, name: request.name, params: request.params, secrets: request.secrets, origin: "replay" });
    if (dto.status === "interrupted") return { ...failed(dto.error?.message ?? "The call was interrupted", dto.id), interrupted: true };
    if (dto.status === "pending") return failed("The target server runs this call as a task: a replay compares answers it gets at once", dto.id);
    const compared = compareOutcomes(recorded, dto, ignore);
    return { status: compared.status as ItemOutcome["status"], replayCallId: dto.id, diff: compared.diff ? JSON.stringify(compared.diff) : null, error: compared.error, durationMs: dto.durationMs };
  } catch (err) {
    // Refused by a workspace rule or a quota (recorded as such, with its id), arguments the target's schema refuses, the server gone.
    return interrupted(err) ?? failed(err instanceof Error ? err.message : String(err), refusedCallId(err));
  }
}
