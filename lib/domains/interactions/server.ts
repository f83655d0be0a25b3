import "server-only";
import { randomUUID } from "node:crypto";
import type { Principal } from "@/lib/core/access";
import { ServedElsewhere, SwitchboardError } from "@/lib/core/errors";
import { instanceUrl } from "@/lib/core/cluster";
import { instanceId } from "@/lib/core/instances";
import { publish } from "@/lib/core/events/server";
import type { InteractionDto, InteractionKind, InteractionStatus, ListInteractions, RespondInteraction } from "./index";
import { declined, isWaiting, settleWaiting, type Settlement } from "./broker";
import { checkFormContent, withFormDefaults } from "./validate";
import { validateArguments } from "@/lib/core/json-schema";
import { checkSamplingReply } from "./sampling";
import * as q from "./queries";

export { elicitationCompleted, handleServerRequest, parseRoots, urlElicitationsRequired } from "./broker";

/** Interactions of the workspace, newest first (at most 100). Pending rows nothing waits on any more read as expired. */
export async function listInteractions(principal: Principal, filter: ListInteractions): Promise<InteractionDto[]> {
  const rows = await q.listInteractions({ workspaceId: principal.workspaceId, ...filter });
  const items: InteractionDto[] = [];
  for (const row of rows) {
    const dto = toDto(await expireIfOrphaned(row));
    if (!filter.status || dto.status === filter.status) items.push(dto);
  }
  return items;
}

export async function getInteraction(principal: Principal, id: string): Promise<InteractionDto> {
  const row = await q.findInteraction({ workspaceId: principal.workspaceId, id });
  if (!row) throw new SwitchboardError("not_found", "Interaction not found");
  return toDto(await expireIfOrphaned(row));
}

/**
 * A person answers. Elicitation: accept (form content is checked against the requested schema),
 * decline or cancel. Sampling: reply with an assistant message (text or tool calls), or decline.
 * 409 if it is no longer pending.
 */
export async function respondInteraction(principal: Principal, id: string, input: RespondInteraction): Promise<InteractionDto> {
  const row = await q.findInteraction({ workspaceId: principal.workspaceId, id });
  if (!row) throw new SwitchboardError("not_found", "Interaction not found");
  if (row.status !== "pending") throw new SwitchboardError("conflict", `This request was already ${row.status}`);
  const kind = row.kind as InteractionKind;
  const request = JSON.parse(row.request) as Record<string, unknown>;
  const settlement = toSettlement(kind, request, input, principal.userName);
  if (row.fromError) {
    // Nothing waits on the server side: record the person's choice.
    await q.settleInteraction({ id, data: rowUpdate(settlement) });
  } else if (waitingElsewhere(row)) {
    throw new ServedElsewhere(row.instanceId!, "The server request");
  } else if (!settleWaiting(id, settlement)) {
    await expireIfOrphaned(row);
    throw new SwitchboardError("conflict", "The server is no longer waiting for this answer");
  }
  await waitSettled(principal.workspaceId, id);
  if (row.fromError) publish(principal.workspaceId, { type: "interaction", serverId: row.serverId, interactionId: id, status: settlement.status });
  return getInteraction(principal, id);
}

function toSettlement(kind: InteractionKind, request: Record<string, unknown>, input: RespondInteraction, who: string): Settlement {
  if (input.action === "decline") return declined(kind, input.reason ? `Declined: ${input.reason}` : `Declined by ${who}`, who);
  if (input.action === "cancel") {
    if (kind === "sampling") throw new SwitchboardError("bad_request", "A sampling request is answered with reply or decline");
    return { status: "cancelled", note: `Cancelled by ${who}`, outcome: { result: { action: "cancel" } }, response: { action: "cancel" }, answeredBy: who };
  }
  if (input.action === "reply") {
    if (kind !== "sampling") throw new SwitchboardError("bad_request", "Only a sampling request takes a reply");
    const result = samplingResult(request, input);
    return { status: "answered", note: `Answered by ${who}`, outcome: { result }, response: result, answeredBy: who };
  }
  if (kind === "sampling") throw new SwitchboardError("bad_request", "A sampling request is answered with reply or decline");
  let result: Record<string, unknown> = { action: "accept" };
  if (kind === "elicitation-form") {
    const content = withFormDefaults(request.requestedSchema, input.content ?? {});
    const errors = checkFormContent(request.requestedSchema, content);
    if (errors.length) throw new SwitchboardError("unprocessable", "The answer does not match the requested form", { errors });
    result = { action: "accept", content };
  }
  const note = kind === "elicitation-url" ? `${who} agreed to open the link` : `Accepted by ${who}`;
  return { status: "answered", note, outcome: { result }, response: result, answeredBy: who };
}

/**
 * The assistant message for a sampling reply: text (`endTurn` or the given stop reason), or
 * `tool_use` blocks with generated ids (after the text, if any) and `stopReason: "toolUse"`.
 * 422 if the reply breaks the request's tools or `toolChoice`.
 */
function samplingResult(request: Record<string, unknown>, input: Extract<RespondInteraction, { action: "reply" }>): Record<string, unknown> {
  const errors = checkSamplingReply(request, { text: input.text, toolUses: input.toolUses }, validateArguments);
  if (errors.length) throw new SwitchboardError("unprocessable", errors[0].message, { errors });
  const uses = input.toolUses ?? [];
  if (!uses.length) return { role: "assistant", content: { type: "text", text: input.text }, model: input.model, stopReason: input.stopReason };
  const content = [
    ...(input.text ? [{ type: "text", text: input.text }] : []),
    ...uses.map((u) => ({ type: "tool_use", id: `toolu_${randomUUID().replace(/-/g, "").slice(0, 24)}`, name: u.name, input: u.input })),
  ];
  return { role: "assistant", content, model: input.model, stopReason: "toolUse" };
}

function rowUpdate(s: Settlement) {
  return { status: s.status, outcome: s.note, response: s.response ? JSON.stringify(s.response) : null, answeredBy: s.answeredBy ?? null, answeredAt: new Date() };
}

/** The waiting request writes the row itself; wait (bounded) until it has, so the answer shows the outcome. */
async function waitSettled(workspaceId: string, id: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const row = await q.findInteraction({ workspaceId, id });
    if (!row || row.status !== "pending") return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Pending on another live instance: that instance's connection waits for the answer. */
function waitingElsewhere(row: q.InteractionRow): boolean {
  return !isWaiting(row.id) && !!row.instanceId && row.instanceId !== instanceId() && instanceUrl(row.instanceId) !== null;
}

async function expireIfOrphaned(row: q.InteractionRow): Promise<q.InteractionRow> {
  if (row.status !== "pending" || row.fromError || isWaiting(row.id) || waitingElsewhere(row)) return row;
  // Give a request that is settling right now a moment to write its row.
  const again = await q.findInteraction({ workspaceId: row.workspaceId, id: row.id });
  if (!again || again.status !== "pending" || isWaiting(row.id)) return again ?? row;
  const data = { status: "expired", outcome: "The console stopped waiting (restart or lost session)", answeredAt: new Date() };
  await q.settleInteraction({ id: row.id, data });
  return { ...row, ...data };
}

function toDto(row: q.InteractionRow): InteractionDto {
  return {
    id: row.id,
    serverId: row.serverId,
    serverName: row.server.name,
    sessionId: row.sessionId,
    callId: row.callId,
    kind: row.kind as InteractionKind,
    request: JSON.parse(row.request) as Record<string, unknown>,
    status: row.status as InteractionStatus,
    response: row.response ? (JSON.parse(row.response) as Record<string, unknown>) : null,
    answeredBy: row.answeredBy,
    attended: row.attended,
    policy: row.policy as InteractionDto["policy"],
    outcome: row.outcome,
    fromError: row.fromError,
    completedAt: row.completedAt?.toISOString() ?? null,
    deadlineAt: row.deadlineAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
  };
}
