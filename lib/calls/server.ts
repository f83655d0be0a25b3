import "server-only";
import crypto from "node:crypto";
import type { Principal } from "@/lib/auth";
import { notFound, SwitchboardError } from "@/lib/errors";
import { McpError } from "@/lib/mcp/server";
import { getServerForCall } from "@/lib/servers/server";
import { getConnection } from "@/lib/sessions/server";
import type { CallDto, CallError, CallMethod, CallOrigin, CallStatus, CallSummary, ListCallsQuery, Page } from "./index";
import { toCallDto, toCallSummary } from "./dto";
import * as q from "./queries";
import { validateArguments } from "./validate";

export interface CallRequest {
  serverId: string;
  method: CallMethod;
  name: string;
  params: Record<string, unknown>;
  timeoutMs?: number;
  requestId?: string;
  rerunOfId?: string;
  origin?: CallOrigin;
  parentCallId?: string;
}

// Running calls by workspace and request id, so that a Cancel can reach them.
const running = ((globalThis as { switchboardRunning?: Map<string, AbortController> }).switchboardRunning ??= new Map());

/**
 * Sends one request on the user's behalf and records it: the row is written as `pending` before
 * the request leaves and completed after. MCP-level failures are data on the call, not throws.
 */
export async function runCall(principal: Principal, req: CallRequest): Promise<CallDto> {
  const server = await getServerForCall(principal, req.serverId);
  if (req.parentCallId) {
    const parent = await q.findCall({ workspaceId: principal.workspaceId, id: req.parentCallId });
    if (!parent || parent.serverId !== server.id) {
      throw new SwitchboardError("unprocessable", "parentCallId must name a call on the same server in this workspace");
    }
  }
  const requestId = req.requestId ?? crypto.randomUUID();
  if (req.requestId && (await q.findCallByRequestId({ workspaceId: principal.workspaceId, requestId }))) {
    throw new SwitchboardError("conflict", "A call with this requestId exists already; a re-run is a new request");
  }
  const base = {
    id: crypto.randomUUID(),
    workspaceId: principal.workspaceId,
    serverId: server.id,
    userId: principal.userId,
    userName: principal.userName,
    method: req.method,
    name: req.name,
    params: JSON.stringify(req.params),
    requestId,
    traceId: crypto.randomBytes(16).toString("hex"),
    rerunOfId: req.rerunOfId ?? null,
    origin: req.origin ?? "user",
    parentCallId: req.parentCallId ?? null,
    requestSize: Buffer.byteLength(JSON.stringify(req.params)),
  };

  let live;
  try {
    live = await getConnection(server);
  } catch (err) {
    const error: CallError = { kind: server.kind === "agent" ? "offline" : "connection", message: (err as Error).message };
    const row = await q.insertCall({ data: { ...base, status: "error", finishedAt: new Date(), durationMs: 0, error: JSON.stringify(error) } });
    return toCallDto(row);
  }

  if (req.method === "tools/call") {
    const tool = (await live.connection.tools().catch(() => [])).find((t) => t.name === req.name);
    const errors = tool ? validateArguments(tool.inputSchema, req.params.arguments ?? {}) : [];
    if (errors.length) throw new SwitchboardError("unprocessable", `Arguments do not match the tool's input schema: ${errors[0]!.path} ${errors[0]!.message}`, { errors });
  }

  const startedAt = new Date();
  const pending = await q.insertPendingCall({ data: { ...base, sessionId: live.sessionId, startedAt } });
  const key = `${principal.workspaceId}:${requestId}`;
  const controller = new AbortController();
  running.set(key, controller);
  const t0 = performance.now();
  let outcome: { status: CallStatus; result?: Record<string, unknown>; error?: CallError };
  try {
    const result = await live.connection.request(req.method, req.params, { timeoutMs: req.timeoutMs ?? server.timeoutMs, signal: controller.signal });
    outcome = { status: result.isError === true ? "error" : "ok", result };
  } catch (err) {
    outcome = failure(err);
  } finally {
    running.delete(key);
  }
  const durationMs = performance.now() - t0;
  const resultText = outcome.result === undefined ? null : JSON.stringify(outcome.result);
  const row = await q.completeCall({
    id: pending.id,
    data: {
      status: outcome.status,
      isError: outcome.result?.isError === true,
      result: resultText,
      error: outcome.error ? JSON.stringify(outcome.error) : null,
      finishedAt: new Date(startedAt.getTime() + durationMs),
      durationMs: Math.round(durationMs * 1000) / 1000,
      resultSize: resultText === null ? null : Buffer.byteLength(resultText),
    },
  });
  return toCallDto(row);
}

function failure(err: unknown): { status: CallStatus; error: CallError } {
  const e = err instanceof McpError ? err : undefined;
  if (e?.kind === "timeout") return { status: "timeout", error: { kind: "timeout", message: e.message } };
  if (e?.kind === "cancelled") return { status: "cancelled", error: { kind: "cancelled", message: e.message } };
  if (e?.kind === "protocol") return { status: "error", error: { kind: "protocol", message: e.message, code: e.code, data: e.data } };
  return { status: "error", error: { kind: "connection", message: err instanceof Error ? err.message : String(err) } };
}

export function cancelCall(principal: Principal, requestId: string): boolean {
  const controller = running.get(`${principal.workspaceId}:${requestId}`);
  controller?.abort(new Error("Cancelled by the user"));
  return controller !== undefined;
}

export async function getCall(principal: Principal, id: string): Promise<CallDto> {
  const row = await q.findCall({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Call");
  return toCallDto(row);
}

export async function listCalls(principal: Principal, query: ListCallsQuery): Promise<Page<CallSummary>> {
  const page = await q.listCalls({ workspaceId: principal.workspaceId, query });
  return { items: page.items.map(toCallSummary), nextCursor: page.nextCursor };
}

/** Runs a stored call again as a new call linked to the original; never a replay. */
export async function rerunCall(principal: Principal, id: string): Promise<CallDto> {
  const original = await getCall(principal, id);
  return runCall(principal, {
    serverId: original.serverId,
    method: original.method,
    name: original.name,
    params: original.params as Record<string, unknown>,
    rerunOfId: original.id,
  });
}

/** At start-up: calls a previous process left pending become `interrupted`. */
export async function interruptPendingCalls(): Promise<number> {
  return (await q.interruptPending()).count;
}
