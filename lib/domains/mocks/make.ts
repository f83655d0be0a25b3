import "server-only";
import type { Principal } from "@/lib/core/access";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import type { CallDto } from "@/lib/domains/calls";
import { getCall, listCalls, listOffered } from "@/lib/domains/calls/server";
import { MAX_MOCK_CALLS, type MockDefinitions, type MockRecording } from "./index";
import type { CreateMock } from "./schemas";
import * as q from "./queries";

const PAGE = 200;
// Calls read at once while a mock is made.
const CONCURRENCY = 16;

const unprocessable = (message: string, path?: string[]) => new SwitchboardError("unprocessable", message, path ? { path } : undefined);
const tooMany = (what: string) => unprocessable(`${what} holds more than ${MAX_MOCK_CALLS} calls: a mock takes at most ${MAX_MOCK_CALLS}, narrow the selection`);

/** The selection's calls in full (as history shows them), oldest first. */
export async function selectedCalls(principal: Principal, input: CreateMock): Promise<CallDto[]> {
  const ids = await selectedIds(principal, input);
  const calls: CallDto[] = [];
  for (let i = 0; i < ids.length; i += CONCURRENCY) {
    calls.push(
      ...(await Promise.all(
        ids.slice(i, i + CONCURRENCY).map((id) =>
          getCall(principal, id).catch((err: unknown) => {
            throw err instanceof SwitchboardError && err.code === "not_found" ? new SwitchboardError("not_found", `Call "${id.slice(0, 100)}" not found`) : err;
          }),
        ),
      )),
    );
  }
  return calls.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
}

async function selectedIds(principal: Principal, input: CreateMock): Promise<string[]> {
  const where = { workspaceId: principal.workspaceId };
  if (input.callIds) return [...new Set(input.callIds)];
  if (input.runId) {
    const ids = await q.findRunCallIds({ ...where, runId: input.runId });
    if (!ids) throw notFound("Run");
    if (ids.length > MAX_MOCK_CALLS) throw tooMany("The run");
    return ids;
  }
  if (input.sessionId) {
    const ids = await q.findSessionCallIds({ ...where, sessionId: input.sessionId, limit: MAX_MOCK_CALLS + 1 });
    if (!ids) throw notFound("Session");
    if (ids.length > MAX_MOCK_CALLS) throw tooMany("The session");
    return ids;
  }
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listCalls(principal, { ...input.filter, limit: PAGE, cursor });
    ids.push(...page.items.map((c) => c.id));
    if (ids.length > MAX_MOCK_CALLS) throw tooMany("The filter's selection");
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** A completed call: answered (a result, isError or not) or refused by the server with a JSON-RPC error. */
function completed(call: CallDto): boolean {
  if (call.status === "ok") return call.result !== null;
  return call.status === "error" && (call.result !== null || call.error?.kind === "protocol");
}

/** The recordings of the completed calls (what history shows: masked values stay masked), and how many were left out. */
export function recordingsOf(calls: CallDto[]): { recordings: MockRecording[]; skipped: number } {
  const kept = calls.filter(completed);
  const recordings = kept.map((call): MockRecording => {
    const params = (call.params ?? {}) as { arguments?: unknown };
    const args = call.method === "resources/read" ? null : params.arguments && typeof params.arguments === "object" && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : {};
    const answered = call.result !== null && typeof call.result === "object" ? { result: call.result as Record<string, unknown> } : { error: { code: call.error?.code ?? -32603, message: call.error?.message ?? "Error", ...(call.error?.data === undefined ? {} : { data: call.error.data }) } };
    return { method: call.method, name: call.name, arguments: args, ...answered, durationMs: call.durationMs === null ? null : Math.round(call.durationMs), callId: call.id };
  });
  return { recordings, skipped: calls.length - kept.length };
}

/** The one server a selection's calls were made against, or a 422 naming the problem. */
export function oneServer(calls: CallDto[]): { id: string; name: string } {
  const servers = new Map(calls.map((c) => [c.serverId, c.serverName ?? c.serverId]));
  if (servers.size === 0) throw unprocessable("The selection holds no calls");
  if (servers.size > 1) {
    const names = [...servers.values()].slice(0, 5).map((n) => `"${n}"`).join(", ");
    throw unprocessable(`The selected calls are of ${servers.size} servers (${names}${servers.size > 5 ? ", …" : ""}): a mock stands for one server, narrow the selection to one (e.g. filter.serverId)`);
  }
  const [id, name] = [...servers.entries()][0]!;
  return { id, name };
}

const parse = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return (JSON.parse(text) as T) ?? fallback;
  } catch {
    return fallback;
  }
};

/**
 * What the mock says of itself: serverInfo, capabilities and instructions from the server's latest
 * session; its lists as the server lists them now (as the caller may call them), else from its
 * latest capability snapshot when it cannot be reached; a server never snapshotted lists the
 * recorded tools and prompts by name only.
 */
export async function definitionsOf(principal: Principal, server: { id: string; name: string }, recordings: MockRecording[]): Promise<MockDefinitions> {
  const [identity, live] = await Promise.all([q.latestServerIdentity({ serverId: server.id }), liveLists(principal, server.id)]);
  const snapshot = live ? null : await q.latestSnapshot({ serverId: server.id });
  const info = parse<Record<string, unknown> | null>(identity?.serverInfo, null);
  const serverInfo = info && typeof info.name === "string" && typeof info.version === "string" ? (info as MockDefinitions["serverInfo"]) : { name: server.name, version: "0" };
  const lists = live ?? parse<Partial<Lists>>(snapshot?.data, {});
  const known = live !== null || snapshot !== null;
  const named = (method: MockRecording["method"]) => [...new Set(recordings.filter((r) => r.method === method).map((r) => r.name))].map((name) => ({ name }));
  return {
    serverInfo,
    capabilities: parse<Record<string, unknown>>(identity?.capabilities, {}),
    ...(identity?.instructions ? { instructions: identity.instructions } : {}),
    tools: known ? (lists.tools ?? []) : named("tools/call").map((t) => ({ ...t, inputSchema: { type: "object" } })),
    prompts: known ? (lists.prompts ?? []) : named("prompts/get"),
    resources: known ? (lists.resources ?? []) : [],
    resourceTemplates: known ? (lists.templates ?? []) : [],
  };
}

type Lists = Record<"tools" | "prompts" | "resources" | "templates", Record<string, unknown>[]>;

/** The server's four lists now (a kind it does not offer is empty), or null when none can be had (the server is away, archived, offline). */
async function liveLists(principal: Principal, serverId: string): Promise<Lists | null> {
  const settled = await Promise.allSettled((["tools", "prompts", "resources", "resource-templates"] as const).map((kind) => listOffered(principal, serverId, kind)));
  if (settled.every((s) => s.status === "rejected")) return null;
  const [tools, prompts, resources, templates] = settled.map((s) => (s.status === "fulfilled" ? s.value : []) as Record<string, unknown>[]);
  return { tools: tools!, prompts: prompts!, resources: resources!, templates: templates! };
}
