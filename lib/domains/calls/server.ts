import "server-only";
import type { Principal } from "@/lib/core/access";
import type { Timing } from "@/lib/core/timing";
import { audit } from "@/lib/core/audit/server";
import type { SecretValues } from "@/lib/core/redaction";
import type { CallDto, ExportCallsQuery } from "./index";
import { sealedRequest } from "./redacted";
import { exportCallsStream, exportFileName } from "./export";
import { getCall } from "./history";
import * as q from "./queries";
import { runCall } from "./run";

export { cancelCall, cancelTaskCall, runCall } from "./run";
export { getCall, listCalls, listTaskCalls } from "./history";
export { followTasks } from "./tasks";
export { beginHostCall, refuseHostCall, type HostCallOutcome } from "./host-calls";
export { ownOutageOutcome } from "./outage";
export { apiSubject, policyError, refusedCallId } from "./govern";
export { APPROVAL_META, APPROVAL_NOTE, listOffered, offeredItems } from "./offered";
export { purgeServerCalls } from "./queries";
export { takeCallRoom } from "./quota";

/**
 * The calls matching the history filters as one NDJSON or CSV file, streamed page by page.
 * Arguments are as history shows them: secret-looking fields masked when the call was recorded.
 */
export async function exportCalls(principal: Principal, query: ExportCallsQuery): Promise<{ stream: ReadableStream<Uint8Array>; fileName: string }> {
  const { format, ...filters } = query;
  await audit(principal, { action: "calls.exported", target: { type: "workspace", id: principal.workspaceId }, details: { format, filters } });
  return { stream: exportCallsStream(principal, query), fileName: exportFileName(format) };
}

/**
 * Runs a stored call again as a new call linked to the original; never a replay. What history
 * masked is sent as it was (sealed) and recorded masked again, the call's own secrets included.
 */
export async function rerunCall(principal: Principal, id: string, timing?: Timing): Promise<CallDto> {
  const { call: original, request } = await originalRequest(principal, id);
  return runCall(principal, { serverId: original.serverId, method: original.method, ...request, rerunOfId: original.id, timing });
}

/**
 * A stored call and its request as Run again sends it: what history masked, unsealed (with the
 * call's own secret values, to mask again). For sending it elsewhere (lib/domains/replays).
 */
export async function originalRequest(principal: Principal, id: string): Promise<{ call: CallDto; request: { name: string; params: Record<string, unknown>; secrets?: SecretValues } }> {
  const call = await getCall(principal, id);
  const sealed = await q.findParamsSecret({ workspaceId: principal.workspaceId, id });
  return { call, request: sealedRequest({ sealed, method: call.method, recorded: { name: call.name, params: call.params as Record<string, unknown> } }) };
}
