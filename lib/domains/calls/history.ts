import "server-only";
import type { Principal } from "@/lib/core/access";
import { notFound } from "@/lib/core/errors";
import { getServer } from "@/lib/domains/servers/server";
import type { CallDto, CallSummary, ListCallsQuery, Page } from "./index";
import { toCallDto, toCallSummary } from "./dto";
import * as q from "./queries";
import { reviewsFor } from "./review-columns";

/** A server's task calls, newest first; `sessionId` narrows to one session. */
export async function listTaskCalls(principal: Principal, serverId: string, sessionId?: string): Promise<CallSummary[]> {
  await getServer(principal, serverId);
  const rows = await q.listTaskCalls({ workspaceId: principal.workspaceId, serverId, sessionId, limit: 100 });
  return rows.map((row) => toCallSummary({ ...row, paramsPreview: "", resultPreview: null }));
}

/** One call in full, with its tags, note count and whether the caller starred it. */
export async function getCall(principal: Principal, id: string): Promise<CallDto> {
  const row = await q.findCall({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Call");
  const reviews = await reviewsFor(principal, [row.id]);
  return toCallDto(row, reviews.get(row.id));
}

/** A page of history; the page's tags, stars and note counts come in one query each. */
export async function listCalls(principal: Principal, query: ListCallsQuery): Promise<Page<CallSummary>> {
  const page = await q.listCalls({ workspaceId: principal.workspaceId, userId: principal.userId, query });
  const reviews = await reviewsFor(principal, page.items.map((r) => r.id));
  const items = page.items.map((row) => toCallSummary(row, reviews.get(row.id)));
  return { items, nextCursor: page.nextCursor, ...(page.incomplete ? { searchIncomplete: true as const } : {}) };
}
