import "server-only";
import type { Principal } from "@/lib/core/access";
import { notFound } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { actionableEvents, type UnreadAlertsDto } from "./index";
import { advanceAlertsSeen, countAlertsAfter, findAlertsSeen, findWorkspaceAlertRow, newestAlertRow } from "./queries";

/**
 * `GET /api/v1/alerts/unread`: the alerts the caller's role may act on (`mayActOn`) raised after
 * the newest one they have seen, or since they joined when they never opened Alerts.
 */
export async function unreadAlerts(principal: Pick<Principal, "workspaceId" | "userId" | "role">): Promise<UnreadAlertsDto> {
  const { seenAt, joinedAt } = await findAlertsSeen(principal);
  const events = actionableEvents(principal.role);
  const after = seenAt ?? joinedAt ?? new Date(0);
  const count = events.length ? await countAlertsAfter({ workspaceId: principal.workspaceId, after, events }) : 0;
  return { count, seenAt: seenAt?.toISOString() ?? null };
}

/**
 * `POST /api/v1/alerts/read`: the caller has seen the alerts up to `upTo` (an alert of the
 * workspace; without it, the newest). The marker only moves forward, so an older page opened in
 * another tab never brings read alerts back.
 */
export async function markAlertsRead(principal: Pick<Principal, "workspaceId" | "userId" | "role">, input: { upTo?: string }): Promise<UnreadAlertsDto> {
  const { workspaceId, userId } = principal;
  const upTo = input.upTo ? await findWorkspaceAlertRow({ workspaceId, id: input.upTo }) : await newestAlertRow({ workspaceId });
  if (input.upTo && !upTo) throw notFound("Alert");
  if (upTo) {
    await advanceAlertsSeen({ workspaceId, userId, seenAt: upTo.createdAt });
    publish(workspaceId, { type: "alerts_seen", userId });
  }
  return unreadAlerts(principal);
}
