import { config } from "@/lib/core/config";
import { containsText, databaseProvider, prisma, sql } from "@/lib/core/db/client";
import { Prisma } from "@prisma/client";
import { ANY_ORIGIN, AUTOMATIC_ORIGINS, type ListCallsQuery } from "./index";

const withServerName = { server: { select: { name: true, archivedAt: true } } } satisfies Prisma.CallInclude;

/** The sealed original arguments of a call whose shown ones were masked (null when nothing was). */
export async function findParamsSecret({ workspaceId, id }: { workspaceId: string; id: string }): Promise<string | null> {
  return (await prisma.call.findFirst({ where: { workspaceId, id }, select: { paramsSecret: true } }))?.paramsSecret ?? null;
}

export function countCalls({ workspaceId }: { workspaceId: string }) {
  return prisma.call.count({ where: { workspaceId } });
}

export function findCall({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.call.findFirst({ where: { workspaceId, id }, include: withServerName });
}

export function findCallByRequestId({ workspaceId, requestId }: { workspaceId: string; requestId: string }) {
  return prisma.call.findFirst({ where: { workspaceId, requestId }, select: { id: true, instanceId: true } });
}

// Past this many FTS hits the word is common: scanning newest-first with LIKE finds a page sooner.
const FTS_CAP = 2000;
/**
 * Past this many calls not indexed yet (an import, an upgrade: the indexer takes ~30 s for a
 * million on 2 cores), a page of history LIKE-scans only the newest this many of them and says
 * its answer may miss older ones; an export scans them all (SWITCHBOARD_SEARCH_TAIL_SCAN).
 */

interface Candidates {
  ids: string[] | null;
  /** Calls not indexed yet were left unsearched: the answer may miss some. */
  incomplete: boolean;
}

/**
 * SQLite: the ids of the workspace's calls whose text holds `q`, from the FTS5 trigram index
 * (migrations history_search_fts5 and history_search_batched) for the calls it holds, and a LIKE
 * scan of those it does not hold yet (lib/domains/calls/search-index.ts indexes finished calls in
 * batches). Null ids when it cannot narrow the search (fewer than three characters, a common word,
 * PostgreSQL). The LIKE filter still applies to what it returns.
 */
async function searchCandidates(workspaceId: string, q: string, exact: boolean): Promise<Candidates> {
  if (databaseProvider !== "sqlite" || [...q].length < 3) return { ids: null, incomplete: false };
  const phrase = `"${q.replace(/"/g, '""')}"`;
  const [{ hits, tail }] = await prisma.$queryRaw<{ hits: number | bigint; tail: number | bigint }[]>`
    SELECT (SELECT count(*) FROM (SELECT rowid FROM call_search WHERE call_search MATCH ${phrase} LIMIT ${FTS_CAP + 1})) AS hits,
      (SELECT ifnull(max(rowid), 0) FROM "call") - (SELECT indexed_through FROM call_search_state) AS tail`;
  if (Number(hits) > FTS_CAP) return { ids: null, incomplete: false };
  const scan = exact ? Number.MAX_SAFE_INTEGER : config().searchTailScan;
  // One statement reads one snapshot: a call the indexer takes meanwhile is found in the index or
  // in the tail, never in neither. CROSS JOIN keeps the index first (as `rowid IN (subquery)`
  // SQLite walks the workspace's calls); `+workspace_id` keeps the tail a rowid range.
  const like = `%${q}%`;
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT c.id FROM call_search s CROSS JOIN "call" c ON c.rowid = s.rowid WHERE call_search MATCH ${phrase} AND c.workspace_id = ${workspaceId}
    UNION
    SELECT id FROM "call" WHERE rowid > max((SELECT indexed_through FROM call_search_state), (SELECT ifnull(max(rowid), 0) FROM "call") - ${scan})
      AND +workspace_id = ${workspaceId} AND (params LIKE ${like} OR result LIKE ${like} OR error LIKE ${like})
    UNION
    SELECT c.id FROM call_search_unindexed u CROSS JOIN "call" c ON c.rowid = u.call_rowid WHERE c.workspace_id = ${workspaceId}
      AND (c.params LIKE ${like} OR c.result LIKE ${like} OR c.error LIKE ${like})
    LIMIT ${FTS_CAP + 1}`;
  if (rows.length > FTS_CAP) return { ids: null, incomplete: false };
  return { ids: rows.map((r) => r.id), incomplete: Number(tail) > scan };
}

// Past this many calls with a tag, the tag is common: walking newest first and checking each call's tags finds a page sooner.
const TAG_CAP = 2000;

/** The ids of the workspace's calls with this tag, or null when there are too many to list (see TAG_CAP). */
async function taggedCandidates(workspaceId: string, tag: string): Promise<string[] | null> {
  // Raw: findMany with `take` orders by the primary key, which sorts every call with a common tag.
  const rows = await prisma.$queryRaw<{ call_id: string }[]>`
    SELECT call_id FROM call_tag WHERE workspace_id = ${workspaceId} AND tag = ${tag} LIMIT ${TAG_CAP + 1}`;
  return rows.length > TAG_CAP ? null : rows.map((r) => r.call_id);
}

/**
 * The candidates on this server and with this status, checked by id. Beside an id list, a server
 * or status condition can make SQLite walk that server's or status's index (every call on it)
 * instead of looking the ids up: its choice when it has no statistics for "call", as on a
 * connection opened before they were gathered (lib/core/db/sqlite.ts). Applied here, they are left out
 * of the where clause, so the id list is the only condition an index can serve.
 */
async function narrowCandidates(ids: string[], { serverId, status }: { serverId?: string; status?: string }): Promise<string[]> {
  if (!ids.length || (!serverId && !status)) return ids;
  const rows = await prisma.call.findMany({ where: { id: { in: ids } }, select: { id: true, serverId: true, status: true } });
  return rows.filter((r) => (!serverId || r.serverId === serverId) && (!status || r.status === status)).map((r) => r.id);
}

/** The calls both lists allow; a null list allows every call. */
function intersect(a: string[] | null, b: string[] | null): string[] | null {
  if (!a || !b) return a ?? b;
  const set = new Set(b);
  return a.filter((id) => set.has(id));
}

/**
 * One origin, every origin ("any"), or by default everything but the reads the console makes by
 * itself: automatic origins, and the resource reads an MCP App makes (loading its own UI first).
 */
function originWhere(origin: string | undefined): Prisma.CallWhereInput {
  if (origin === ANY_ORIGIN) return {};
  if (origin) return { origin };
  return { origin: { notIn: [...AUTOMATIC_ORIGINS] }, NOT: { origin: "app", method: "resources/read" } };
}

type Filters = { workspaceId: string; userId: string; query: Omit<ListCallsQuery, "cursor" | "limit"> };

/**
 * The history filters as a where clause. `tag` and `starred` are EXISTS-style relation filters,
 * so a history index still drives the newest-first order; a rare tag also narrows to its ids first. `q` is a
 * case-insensitive substring of arguments, result or error on both databases; PostgreSQL's pg_trgm
 * indexes serve the ILIKE itself, SQLite's FTS5 index and the not-yet-indexed tail narrow it first (searchCandidates).
 * Also says whether calls not indexed yet were left out of a search (never when `exact`).
 */
async function callsWhere({ workspaceId, userId, query }: Filters, { exact }: { exact: boolean }): Promise<{ where: Prisma.CallWhereInput; incomplete: boolean }> {
  // A rare tag or word narrows to a list of ids; the filters below still apply to them.
  const [searched, tagged] = await Promise.all([
    query.q ? searchCandidates(workspaceId, query.q, exact) : null,
    query.tag ? taggedCandidates(workspaceId, query.tag) : null,
  ]);
  const both = intersect(searched?.ids ?? null, tagged);
  const candidates = both && (await narrowCandidates(both, query));
  const where: Prisma.CallWhereInput = {
    // Candidates are this workspace's calls already; without the workspace condition SQLite looks
    // them up by id instead of walking the workspace's newest-first index past every other call.
    // Their server and status are checked already (narrowCandidates).
    ...(candidates
      ? { id: { in: candidates } }
      : { workspaceId, ...(query.serverId ? { serverId: query.serverId } : {}), ...(query.status ? { status: query.status } : {}) }),
    ...(query.method ? { method: query.method } : {}),
    ...(query.name ? { name: query.name } : {}),
    ...(query.userId ? { userId: query.userId } : {}),
    ...originWhere(query.origin),
    ...(query.from || query.to
      ? { startedAt: { ...(query.from ? { gte: new Date(query.from) } : {}), ...(query.to ? { lte: new Date(query.to) } : {}) } }
      : {}),
    ...(query.q ? { OR: [{ params: containsText(query.q) }, { result: containsText(query.q) }, { error: containsText(query.q) }] } : {}),
    ...(query.tag ? { tags: { some: { tag: query.tag } } } : {}),
    ...(query.starred ? { stars: { some: { userId } } } : {}),
  };
  return { where, incomplete: searched?.incomplete ?? false };
}

/** Newest first, keyset pagination on (startedAt, id). `userId` is the caller (for `starred`). */
export async function listCalls({ workspaceId, userId, query }: { workspaceId: string; userId: string; query: ListCallsQuery }) {
  const { where, incomplete } = await callsWhere({ workspaceId, userId, query }, { exact: false });
  const after = query.cursor ? await prisma.call.findFirst({ where: { id: query.cursor, workspaceId }, select: { startedAt: true, id: true } }) : null;
  if (query.cursor && !after) return { items: [], nextCursor: null, incomplete };
  const rows = await prisma.call.findMany({
    where: after ? { AND: [where, keysetBefore(after)] } : where,
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    omit: { params: true, result: true },
    include: withServerName,
  });
  const items = rows.slice(0, query.limit);
  const previews = await previewsFor(items.map((r) => r.id));
  return { items: items.map((r) => ({ ...r, ...previews.get(r.id) })), nextCursor: rows.length > query.limit ? items[items.length - 1]!.id : null, incomplete };
}

/**
 * Rows strictly before `after` in (startedAt, id) descending order. The redundant `lte` bounds the
 * index range: the OR alone would make the database walk the workspace from its newest call.
 */
function keysetBefore(after: { startedAt: Date; id: string }): Prisma.CallWhereInput {
  return { startedAt: { lte: after.startedAt }, OR: [{ startedAt: { lt: after.startedAt } }, { id: { lt: after.id } }] };
}

// Previews are cut in SQL so a page of 10 MB results never loads the bodies.
async function previewsFor(ids: string[]) {
  const map = new Map<string, { paramsPreview: string; resultPreview: string | null }>();
  if (!ids.length) return map;
  const rows = await prisma.$queryRaw<{ id: string; p: string; r: string | null }[]>`
    SELECT id, substr(params, 1, 200) AS p, substr(result, 1, 200) AS r FROM "call" WHERE id IN (${sql.join(ids)})`;
  for (const row of rows) map.set(row.id, { paramsPreview: row.p, resultPreview: row.r });
  return map;
}

/**
 * One page of an export, newest first, strictly after `after` in (startedAt, id) order: a keyset
 * that survives rows being deleted meanwhile. Bodies are left out (see callBodies) with their sizes.
 */
export async function listCallsAfter({ workspaceId, userId, query, after, limit }: { workspaceId: string; userId: string; query: Omit<ListCallsQuery, "cursor" | "limit">; after: { startedAt: Date; id: string } | null; limit: number }) {
  const { where } = await callsWhere({ workspaceId, userId, query }, { exact: true });
  return prisma.call.findMany({
    where: after ? { AND: [where, keysetBefore(after)] } : where,
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit,
    omit: { params: true, result: true },
    include: withServerName,
  });
}

/** The params (and results, when asked) of these calls. */
export function callBodies({ ids, result }: { ids: string[]; result: boolean }) {
  return prisma.call.findMany({ where: { id: { in: ids } }, select: { id: true, params: true, result } });
}

/** A task call with what the poller needs to reach its server. */
export function findTaskCall({ id }: { id: string }) {
  return prisma.call.findUnique({
    where: { id },
    select: { id: true, workspaceId: true, serverId: true, requestId: true, userId: true, status: true, taskId: true, taskStatus: true, taskStatusMessage: true, taskPollIntervalMs: true, startedAt: true },
  });
}

/** Task calls still waiting for their task to end (resumed at start-up). */
export function findPendingTaskCallByRequestId({ workspaceId, requestId }: { workspaceId: string; requestId: string }) {
  return prisma.call.findFirst({ where: { workspaceId, requestId, status: "pending", taskId: { not: null } }, select: { id: true } });
}

/** A server's task calls, newest first (optionally one session's). */
export function listTaskCalls({ workspaceId, serverId, sessionId, limit }: { workspaceId: string; serverId: string; sessionId?: string; limit: number }) {
  return prisma.call.findMany({
    where: { workspaceId, serverId, taskId: { not: null }, ...(sessionId ? { sessionId } : {}) },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: limit,
    omit: { params: true, result: true },
    include: withServerName,
  });
}

export type CallRow = NonNullable<Awaited<ReturnType<typeof findCall>>>;
export type CallSummaryRow = Awaited<ReturnType<typeof listCalls>>["items"][number];

// The review columns of a page of calls: one query each, never one per row.

export function tagsOf({ callIds }: { callIds: string[] }) {
  return prisma.callTag.findMany({ where: { callId: { in: callIds } }, select: { callId: true, tag: true }, orderBy: [{ callId: "asc" }, { tag: "asc" }] });
}

export function starsOf({ userId, callIds }: { userId: string; callIds: string[] }) {
  return prisma.callStar.findMany({ where: { userId, callId: { in: callIds } }, select: { callId: true } });
}

export function noteCountsOf({ callIds }: { callIds: string[] }) {
  return prisma.callNote.groupBy({ by: ["callId"], where: { callId: { in: callIds } }, _count: { _all: true } });
}

/**
 * Deletes up to `limit` finished calls that started before `cutoff` (retention: one short
 * statement, so a million old rows never hold SQLite's write lock for long). Shares, notes, tags
 * and stars go by cascade. How many it deleted.
 */
export async function deleteOldCalls({ workspaceId, cutoff, limit }: { workspaceId: string; cutoff: Date; limit: number }): Promise<number> {
  const rows = await prisma.call.findMany({ where: { workspaceId, startedAt: { lt: cutoff }, status: { not: "pending" } }, select: { id: true }, take: limit });
  if (!rows.length) return 0;
  return (await prisma.call.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } })).count;
}

/** Deletes every call of a server (purging it), in batches so that no statement holds SQLite's write lock for long; how many. */
export async function purgeServerCalls({ workspaceId, serverId }: { workspaceId: string; serverId: string }): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await prisma.call.findMany({ where: { serverId, workspaceId }, select: { id: true }, take: 5000 });
    if (!batch.length) return deleted;
    deleted += (await prisma.call.deleteMany({ where: { id: { in: batch.map((c) => c.id) } } })).count;
  }
}
