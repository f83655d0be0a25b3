import "server-only";
import type { Principal } from "@/lib/core/access";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import type { CallMethod } from "@/lib/domains/calls";
import { MockFileSchema } from "@/lib/domains/mocks/schemas";
import { getCall, listCalls, originalRequest } from "@/lib/domains/calls/server";
import type { SecretValues } from "@/lib/core/redaction";
import type { Outcome } from "./compare";
import { MAX_REPLAY_CALLS, type ReplaySource } from "./index";
import * as q from "./queries";
import type { StartReplay } from "./schemas";

/** One call to send again: what the item shows, and (read when its turn comes) the recorded answer and the request to send. */
export interface Selected {
  callId: string;
  method: CallMethod;
  name: string;
  load(): Promise<{ recorded: Outcome; request: { name: string; params: Record<string, unknown>; secrets?: SecretValues } }>;
}

const unprocessable = (message: string) => new SwitchboardError("unprocessable", message);
const tooMany = (what: string) => unprocessable(`${what} more than ${MAX_REPLAY_CALLS} calls: narrow it (a replay sends at most ${MAX_REPLAY_CALLS})`);

/** A recorded call, sent as Run again sends it: what history masked is sent as it was. */
function fromHistory(principal: Principal, call: { id: string; method: CallMethod; name: string }): Selected {
  return {
    callId: call.id,
    method: call.method,
    name: call.name,
    load: async () => {
      const { call: recorded, request } = await originalRequest(principal, call.id);
      return { recorded, request };
    },
  };
}

/** The calls a replay sends, in order (ticked calls as given, a filter's oldest first), and the source as stored. */
export async function selectCalls(principal: Principal, input: StartReplay): Promise<{ source: ReplaySource; calls: Selected[] }> {
  if (input.callIds) {
    const ids = [...new Set(input.callIds)];
    const calls = [];
    for (const id of ids) calls.push(fromHistory(principal, await getCall(principal, id)));
    return { source: { callIds: ids }, calls };
  }
  if (input.filter) {
    const found: { id: string; method: CallMethod; name: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await listCalls(principal, { ...input.filter, cursor, limit: 200 });
      found.push(...page.items);
      cursor = page.nextCursor ?? undefined;
      if (found.length > MAX_REPLAY_CALLS) throw tooMany("The filter selects");
    } while (cursor);
    if (!found.length) throw unprocessable("The filter selects no calls: nothing to replay (history's origin filter leaves automatic work out unless asked)");
    return { source: { filter: input.filter }, calls: found.reverse().map((c) => fromHistory(principal, c)) };
  }
  return selectMock(principal, input.mockId!);
}

/**
 * A mock's recordings (lib/domains/mocks writes its file; read here with its file schema): they hold
 * the arguments as history showed them (masked values stay masked) and are sent so.
 */
async function selectMock(principal: Principal, mockId: string): Promise<{ source: ReplaySource; calls: Selected[] }> {
  const mock = await q.findMockData({ workspaceId: principal.workspaceId, id: mockId });
  if (!mock) throw notFound("Mock");
  let data: unknown = null;
  try {
    data = JSON.parse(mock.data);
  } catch {
    // Not JSON: refused below as unreadable.
  }
  const parsed = MockFileSchema.shape.recordings.safeParse((data as { recordings?: unknown } | null)?.recordings);
  if (!parsed.success) throw unprocessable(`The mock "${mock.name}" has no readable recordings`);
  const recordings = parsed.data;
  if (!recordings.length) throw unprocessable(`The mock "${mock.name}" holds no recordings: nothing to replay`);
  if (recordings.length > MAX_REPLAY_CALLS) throw tooMany(`The mock "${mock.name}" holds`);
  const calls = recordings.map((r, index): Selected => {
    const recorded: Outcome = r.error
      ? { status: "error", isError: false, result: null, error: { kind: "protocol", message: r.error.message, code: r.error.code } }
      : { status: "ok", isError: r.result?.isError === true, result: r.result ?? null, error: null };
    const params = r.method === "resources/read" ? { uri: r.name } : { name: r.name, arguments: r.arguments ?? {} };
    return { callId: r.callId ?? `${mock.id}#${index}`, method: r.method, name: r.name, load: async () => ({ recorded, request: { name: r.name, params } }) };
  });
  return { source: { mockId: mock.id }, calls };
}
