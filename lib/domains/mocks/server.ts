import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { isUniqueViolation } from "@/lib/core/db/client";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { piece } from "@/lib/core/runtime";
import { MOCK_FORMAT, mockPath, shortened, type MockDto, type MockFile, type MockMatch, type MockRecording, type MockSettings } from "./index";
import { definitionsOf, oneServer, recordingsOf, selectedCalls } from "./make";
import type { CreateMock, UpdateMock } from "./schemas";
import * as q from "./queries";

export { buildMockServer, type MockOutcome } from "./mcp";
export type { MockRequest } from "./engine";

/**
 * What the mock table's `data` holds: the file as it was made (MockFileSchema reads it); its name
 * and settings are columns of their own, which win (a rename or PATCH leaves `data` alone).
 */
type Stored = Omit<MockFile, keyof MockSettings>;

const nameTaken = (name: string) => new SwitchboardError("conflict", `A mock named "${name}" exists already`, { path: ["name"] });

function settingsOf(row: { match: string; ignore: string; latency: boolean }): MockSettings {
  let ignore: string[] = [];
  try {
    ignore = JSON.parse(row.ignore) as string[];
  } catch {
    // A row written by hand: matching ignores nothing.
  }
  return { match: row.match as MockMatch, ignore, latency: row.latency };
}

function toDto(slug: string, row: q.MockRow, extra: Pick<MockDto, "recordings" | "skipped"> = {}): MockDto {
  return {
    id: row.id,
    name: row.name,
    serverId: row.serverId,
    serverName: row.server?.name ?? null,
    endpoint: mockPath(slug, row.name),
    calls: row.calls,
    ...settingsOf(row),
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...extra,
  };
}

function summaries(recordings: MockRecording[]): NonNullable<MockDto["recordings"]> {
  return recordings.map((r, index) => ({ index, method: r.method, name: r.name, arguments: shortened(r.arguments), status: r.error || r.result?.isError === true ? "error" : "ok", durationMs: r.durationMs, callId: r.callId ?? null }));
}

async function requireMock(principal: Principal, id: string) {
  const row = await q.findMock({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Mock");
  return row;
}

const changed = (workspaceId: string, mockId: string) => publish(workspaceId, { type: "mock", mockId });

export async function listMocks(principal: Principal): Promise<MockDto[]> {
  const [rows, slug] = await Promise.all([q.listMocks(principal), q.findWorkspaceSlug(principal)]);
  return rows.map((row) => toDto(slug, row));
}

export async function getMock(principal: Principal, id: string): Promise<MockDto> {
  const row = await requireMock(principal, id);
  return toDto(await q.findWorkspaceSlug(principal), row, { recordings: summaries((JSON.parse(row.data) as Stored).recordings) });
}

/**
 * Makes a mock from a selection of history: calls of one server (422 otherwise), at most
 * MAX_MOCK_CALLS, the completed ones recorded as history shows them (secrets stay masked).
 */
export async function createMock(principal: Principal, input: CreateMock): Promise<MockDto> {
  const calls = await selectedCalls(principal, input);
  const server = oneServer(calls);
  const { recordings, skipped } = recordingsOf(calls);
  if (!recordings.length) throw new SwitchboardError("unprocessable", `None of the ${calls.length} selected calls is completed (answered, or refused by the server with a JSON-RPC error): a mock has nothing to answer with`);
  const stored: Stored = { format: MOCK_FORMAT, name: input.name, source: { serverId: server.id, serverName: server.name }, ...(await definitionsOf(principal, server, recordings)), recordings };
  const row = await q
    .insertMock({
      data: {
        workspaceId: principal.workspaceId,
        serverId: server.id,
        name: input.name,
        match: input.match,
        ignore: JSON.stringify(input.ignore),
        latency: input.latency,
        data: JSON.stringify(stored),
        calls: recordings.length,
        createdById: principal.userId,
        createdByName: principal.userName,
      },
    })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? nameTaken(input.name) : err;
    });
  const selection = input.callIds ? "callIds" : input.runId ? "runId" : input.sessionId ? "sessionId" : "filter";
  await audit(principal, { action: "mock.created", target: { type: "mock", id: row.id, name: row.name }, details: { serverId: server.id, selection, calls: recordings.length, skipped, match: input.match } });
  changed(principal.workspaceId, row.id);
  return toDto(await q.findWorkspaceSlug(principal), row, { recordings: summaries(recordings), skipped });
}

export async function updateMock(principal: Principal, id: string, input: UpdateMock): Promise<MockDto> {
  const existing = await requireMock(principal, id);
  const row = await q
    .updateMock({ id, data: { name: input.name, match: input.match, ignore: input.ignore === undefined ? undefined : JSON.stringify(input.ignore), latency: input.latency } })
    .catch((err: unknown) => {
      throw isUniqueViolation(err) ? nameTaken(input.name ?? existing.name) : err;
    });
  const fields = (["name", "match", "ignore", "latency"] as const).filter((k) => input[k] !== undefined);
  await audit(principal, { action: "mock.updated", target: { type: "mock", id, name: row.name }, details: { changed: fields, ...(input.name !== undefined && input.name !== existing.name ? { from: existing.name } : {}) } });
  changed(principal.workspaceId, id);
  return toDto(await q.findWorkspaceSlug(principal), row);
}

export async function deleteMock(principal: Principal, id: string): Promise<void> {
  const existing = await requireMock(principal, id);
  await q.deleteMock({ id });
  await audit(principal, { action: "mock.deleted", target: { type: "mock", id, name: existing.name } });
  changed(principal.workspaceId, id);
}

function fileOf(row: { name: string; match: string; ignore: string; latency: boolean }, stored: Stored): MockFile {
  const { format: _format, name: _name, source, recordings, ...definitions } = stored;
  return { format: MOCK_FORMAT, name: row.name, source, ...definitions, ...settingsOf(row), recordings };
}

/** The file `switchboard mock serve` serves: definitions, settings and recordings (as history shows them). */
export async function exportMock(principal: Principal, id: string): Promise<MockFile> {
  const row = await requireMock(principal, id);
  return fileOf(row, JSON.parse(row.data) as Stored);
}

/** Parsed files by mock id, valid while the row's updatedAt is the same. */
const files = () => piece("mockFiles", () => new Map<string, { updatedAt: number; stored: Stored }>());
const FILE_CACHE = 100;

/** What the gateway serves at /mcp/<slug>/mock/<name>, or null when no mock has that name there. */
export async function findMockRoute(slug: string, name: string): Promise<{ workspaceId: string; mockId: string; serverId: string; file: MockFile } | null> {
  const found = await q.findMockRoute({ slug, name });
  if (!found) return null;
  const { mock } = found;
  let cached = files().get(mock.id);
  if (!cached || cached.updatedAt !== mock.updatedAt.getTime()) {
    const data = await q.findMockData({ id: mock.id });
    if (!data) return null;
    cached = { updatedAt: data.updatedAt.getTime(), stored: JSON.parse(data.data) as Stored };
    if (files().size >= FILE_CACHE) files().clear();
    files().set(mock.id, cached);
  }
  return { workspaceId: found.workspace.id, mockId: mock.id, serverId: mock.serverId, file: fileOf(mock, cached.stored) };
}
