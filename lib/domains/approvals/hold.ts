import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import type { Role } from "@/lib/core/access";
import { isDatabaseOutage } from "@/lib/core/db/client";
import { observe, publish } from "@/lib/core/events/server";
import { piece } from "@/lib/core/runtime";
import { DEFAULT_REDACTION_KEYS, redact } from "@/lib/core/redaction";
import type { ApprovalStatus } from "./index";
import * as q from "./queries";

/** How often a held call re-reads its approval: the event may have been lost between instances. */
const POLL_MS = 1500;
/** How often `onWaiting` is told the call still waits (the gateway's progress notifications). */
const WAITING_EVERY_MS = 5000;
const OUTAGE: unique symbol = Symbol("outage");

/** What the mail and webhook notice of a held call says (lib/start registers lib/watch's sender). */
export interface ApprovalNotice {
  approvalId: string;
  workspaceId: string;
  serverId: string;
  serverName: string;
  name: string;
  ruleName: string;
  requesterName: string | null;
  client: string | null;
  expiresAt: Date;
}
type Notifier = (notice: ApprovalNotice) => Promise<void>;
const notifier = () => piece<{ fn: Notifier | null }>("approvalNotifier", () => ({ fn: null }));

export function registerApprovalNotifier(fn: Notifier | null): void {
  notifier().fn = fn;
}

export interface HoldRequest {
  workspaceId: string;
  /** Who is calling; null ids for callers that are not a person (monitors). */
  requester: { userId: string | null; name: string | null };
  callId: string;
  serverId: string;
  serverName: string;
  method: string;
  name: string;
  /** The arguments as history masks them: the call row's `params` JSON text, or the masked value. */
  params: unknown;
  ruleId: string;
  ruleName: string;
  approverRoles: Role[];
  timeoutSeconds: number;
  /** The MCP host ("name version") for gateway calls. */
  client: string | null;
  origin: string;
  /** The caller stopped waiting: the approval ends `expired`. */
  signal?: AbortSignal;
  onWaiting?: (elapsedMs: number) => void;
}

export interface HoldOutcome {
  approvalId: string;
  approved: boolean;
  status: Exclude<ApprovalStatus, "pending">;
  /** In words for the caller; a refusal names the rule. */
  reason: string;
  decidedBy: { id: string | null; name: string | null } | null;
}

/**
 * Holds a call until a person decides: records the approval, tells the console, then waits for
 * the decision — made through any instance — on the workspace's events, re-reading the row every
 * POLL_MS in case an event was missed. No decision by the deadline (or the caller giving up) is a
 * denial, recorded as `expired`.
 */
export async function holdForApproval(input: HoldRequest): Promise<HoldOutcome> {
  const started = Date.now();
  const deadline = started + Math.max(1, input.timeoutSeconds) * 1000;
  const row = await q.createApproval({
    data: {
      workspaceId: input.workspaceId,
      callId: input.callId,
      serverId: input.serverId,
      serverName: input.serverName,
      method: input.method,
      name: input.name,
      params: maskedText(input.method, input.params),
      ruleId: input.ruleId,
      ruleName: input.ruleName,
      approverRoles: JSON.stringify(input.approverRoles),
      requesterId: input.requester.userId,
      requesterName: input.requester.name,
      client: input.client,
      origin: input.origin,
      expiresAt: new Date(deadline),
    },
  });
  let wake = new AbortController();
  const stop = observe(input.workspaceId, (event) => {
    if (event.type === "approval" && event.approvalId === row.id && event.status !== "pending") wake.abort();
  });
  publish(input.workspaceId, approvalEvent(row));
  const notify = notifier().fn;
  // Mail and webhooks may take seconds: the wait does not depend on them, and a failed delivery is the alert's to show.
  if (notify) {
    const { id: approvalId, workspaceId, serverId, serverName, name, ruleName, requesterName, client, expiresAt } = row;
    void notify({ approvalId, workspaceId, serverId, serverName, name, ruleName, requesterName, client, expiresAt }).catch((err: unknown) => console.error(`[approvals] the notice of approval ${row.id} failed`, err));
  }
  try {
    let told = started;
    for (;;) {
      // The database away for a moment does not end the wait: the next read (or the deadline) decides.
      const current = await q.findApprovalById({ id: row.id }).catch((err: unknown): typeof OUTAGE => {
        if (isDatabaseOutage(err) && Date.now() < deadline) return OUTAGE;
        throw err;
      });
      if (current === OUTAGE) {
        await sleep(POLL_MS, undefined, { signal: input.signal }).catch(() => undefined);
        continue;
      }
      if (!current) return { approvalId: row.id, approved: false, status: "expired", reason: `The approval for rule "${input.ruleName}" is gone`, decidedBy: null };
      if (current.status !== "pending") return outcomeOf(current);
      const now = Date.now();
      const giveUp = input.signal?.aborted ? "The caller stopped waiting" : now >= deadline ? `No decision within ${Math.round((deadline - started) / 1000)} s` : null;
      if (giveUp) {
        if (await expireApproval(current, giveUp)) return outcomeOf((await q.findApprovalById({ id: row.id })) ?? current);
        continue; // decided at the last moment: read it
      }
      if (now - told >= WAITING_EVERY_MS) {
        told = now;
        input.onWaiting?.(now - started);
      }
      const delay = Math.max(1, Math.min(POLL_MS, deadline - now, WAITING_EVERY_MS - (now - told)));
      const signals = input.signal ? [wake.signal, input.signal] : [wake.signal];
      await sleep(delay, undefined, { signal: AbortSignal.any(signals) }).catch(() => undefined);
      if (wake.signal.aborted) wake = new AbortController();
    }
  } finally {
    stop();
  }
}

/** Ends a pending approval as `expired` (compare-and-set) and tells the console; false if it was decided meanwhile. */
export async function expireApproval(row: q.ApprovalRow, why: string): Promise<boolean> {
  const reason = `${why} (rule "${row.ruleName}")`;
  if (!(await q.settleApproval({ id: row.id, data: { status: "expired", reason, decidedById: null, decidedByName: null } }))) return false;
  publish(row.workspaceId, approvalEvent({ ...row, status: "expired" }));
  return true;
}

export function approvalEvent(row: Pick<q.ApprovalRow, "id" | "status" | "serverId" | "serverName" | "name" | "requesterId" | "requesterName" | "approverRoles" | "createdAt">) {
  return {
    type: "approval" as const,
    approvalId: row.id,
    status: row.status,
    serverId: row.serverId,
    serverName: row.serverName,
    name: row.name,
    requesterId: row.requesterId,
    requester: row.requesterName,
    approverRoles: parseRoles(row.approverRoles),
    createdAt: row.createdAt.toISOString(),
  };
}

function outcomeOf(row: q.ApprovalRow): HoldOutcome {
  const status = row.status as HoldOutcome["status"];
  const decidedBy = row.decidedById || row.decidedByName ? { id: row.decidedById, name: row.decidedByName } : null;
  const who = row.decidedByName ?? "an approver";
  const reason =
    status === "approved"
      ? `Approved by ${who}${row.reason ? `: ${row.reason}` : ""}`
      : status === "denied"
        ? `Denied by ${who} (rule "${row.ruleName}"): ${row.reason ?? "no reason given"}`
        : (row.reason ?? `No decision in time (rule "${row.ruleName}")`);
  return { approvalId: row.id, approved: status === "approved", status, reason, decidedBy };
}

/** Stored roles, tolerant of bad data. */
export function parseRoles(text: string): Role[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value.filter((r): r is Role => typeof r === "string") : [];
  } catch {
    return [];
  }
}

/**
 * What a person judges: a tool's or prompt's arguments (a resource read's `{ uri }`), out of the
 * request params as history keeps them, masked once more with the default keys.
 */
function maskedText(method: string, params: unknown): string {
  let value = params;
  if (typeof params === "string") {
    try {
      value = JSON.parse(params) as unknown;
    } catch {
      value = params;
    }
  }
  if (value && typeof value === "object" && !Array.isArray(value) && method !== "resources/read") {
    const request = value as Record<string, unknown>;
    if ("arguments" in request || "name" in request) value = request.arguments ?? {};
  }
  return JSON.stringify(redact(value ?? {}, DEFAULT_REDACTION_KEYS).value);
}
