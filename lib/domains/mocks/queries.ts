import { prisma } from "@/lib/core/db/client";

// The only writer of mock. It also reads what a mock is made from: a run's steps, a session's
// calls and identity, a server's latest capability snapshot (lib/watch writes those; domains may not import it).

const ROW = {
  id: true,
  workspaceId: true,
  serverId: true,
  name: true,
  match: true,
  ignore: true,
  latency: true,
  calls: true,
  createdByName: true,
  createdAt: true,
  updatedAt: true,
  server: { select: { name: true } },
} as const;

export function listMocks({ workspaceId }: { workspaceId: string }) {
  return prisma.mock.findMany({ where: { workspaceId }, orderBy: [{ name: "asc" }, { id: "asc" }], select: ROW });
}

export function findMock({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.mock.findFirst({ where: { workspaceId, id }, select: { ...ROW, data: true } });
}

export type MockRow = Awaited<ReturnType<typeof listMocks>>[number];

/** The mock a gateway path names: /mcp/<slug>/mock/<name> (null when the workspace or the name is unknown). */
export async function findMockRoute({ slug, name }: { slug: string; name: string }) {
  const workspace = await prisma.workspace.findUnique({ where: { slug }, select: { id: true, slug: true } });
  if (!workspace) return null;
  const mock = await prisma.mock.findUnique({ where: { workspaceId_name: { workspaceId: workspace.id, name } }, select: { id: true, serverId: true, name: true, match: true, ignore: true, latency: true, updatedAt: true } });
  return mock ? { workspace, mock } : null;
}

export function findMockData({ id }: { id: string }) {
  return prisma.mock.findUnique({ where: { id }, select: { data: true, updatedAt: true } });
}

export function insertMock({ data }: { data: { workspaceId: string; serverId: string; name: string; match: string; ignore: string; latency: boolean; data: string; calls: number; createdById: string | null; createdByName: string | null } }) {
  return prisma.mock.create({ data, select: ROW });
}

export function updateMock({ id, data }: { id: string; data: { name?: string; match?: string; ignore?: string; latency?: boolean } }) {
  return prisma.mock.update({ where: { id }, data, select: ROW });
}

export function deleteMock({ id }: { id: string }) {
  return prisma.mock.delete({ where: { id } });
}

export function findWorkspaceSlug({ workspaceId }: { workspaceId: string }) {
  return prisma.workspace.findUnique({ where: { id: workspaceId }, select: { slug: true } }).then((w) => w?.slug ?? "");
}

/** A collection run's step calls, in step order (null: no such run in the workspace). */
export async function findRunCallIds({ workspaceId, runId }: { workspaceId: string; runId: string }): Promise<string[] | null> {
  const run = await prisma.collectionRun.findFirst({ where: { id: runId, workspaceId }, select: { steps: { select: { callId: true }, orderBy: { index: "asc" } } } });
  return run ? run.steps.flatMap((s) => (s.callId ? [s.callId] : [])) : null;
}

/** A session's calls, oldest first, at most `limit` (null: no such session in the workspace). */
export async function findSessionCallIds({ workspaceId, sessionId, limit }: { workspaceId: string; sessionId: string; limit: number }): Promise<string[] | null> {
  const session = await prisma.mcpSession.findFirst({ where: { id: sessionId, workspaceId }, select: { id: true } });
  if (!session) return null;
  const calls = await prisma.call.findMany({ where: { workspaceId, sessionId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }], take: limit, select: { id: true } });
  return calls.map((c) => c.id);
}

/** What the server said of itself at its latest session that got that far. */
export function latestServerIdentity({ serverId }: { serverId: string }) {
  return prisma.mcpSession.findFirst({
    where: { serverId, serverInfo: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { serverInfo: true, capabilities: true, instructions: true },
  });
}

/** The server's lists at its latest capability snapshot. */
export function latestSnapshot({ serverId }: { serverId: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { serverId }, orderBy: [{ seq: "desc" }, { takenAt: "desc" }, { id: "desc" }], select: { data: true } });
}
