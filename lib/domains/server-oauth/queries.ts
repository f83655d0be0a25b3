import { prisma } from "@/lib/core/db/client";
import { forgetCache } from "@/lib/core/runtime";

// The call path masks a server's stored secret values (./secret-values), cached with the
// server rows: every write of a token or a client registration empties that cache everywhere.
async function secretsChanged<T>(row: T): Promise<T> {
  await forgetCache("serverCache");
  return row;
}

export function findClient({ workspaceId, issuer }: { workspaceId: string; issuer: string }) {
  return prisma.oAuthClient.findUnique({ where: { workspaceId_issuer: { workspaceId, issuer } }, omit: { infoSecret: false } });
}

export async function upsertClient(input: { workspaceId: string; issuer: string; clientId: string; method: string; infoSecret: string; redirectUri: string }) {
  const { workspaceId, issuer, ...data } = input;
  return secretsChanged(
    await prisma.oAuthClient.upsert({
      where: { workspaceId_issuer: { workspaceId, issuer } },
      create: { workspaceId, issuer, ...data },
      update: data,
    }),
  );
}

/** The encrypted registrations of the workspace's clients at these issuers (to mask their secrets). */
export function findClientSecrets({ workspaceId, issuers }: { workspaceId: string; issuers: string[] }) {
  if (!issuers.length) return Promise.resolve([]);
  return prisma.oAuthClient.findMany({ where: { workspaceId, issuer: { in: issuers } }, select: { infoSecret: true } });
}

/** Every stored credential of a server with its encrypted tokens (to mask them). */
export function findServerTokenSecrets({ serverId }: { serverId: string }) {
  return prisma.oAuthCredential.findMany({ where: { serverId }, select: { issuer: true, tokensSecret: true } });
}

/** A credential with its encrypted tokens (the only query that reads them). */
export function findCredential({ serverId, subject }: { serverId: string; subject: string }) {
  return prisma.oAuthCredential.findUnique({ where: { serverId_subject: { serverId, subject } }, omit: { tokensSecret: false } });
}

/** Without the tokens: for status answers. */
export function findCredentialInfo({ serverId, subject }: { serverId: string; subject: string }) {
  return prisma.oAuthCredential.findUnique({ where: { serverId_subject: { serverId, subject } } });
}

export async function upsertCredential(input: {
  workspaceId: string;
  serverId: string;
  subject: string;
  /** Null for a refresh the console did on its own: keeps who signed in. */
  userId: string | null;
  issuer: string | null;
  tokensSecret: string;
  scope: string | null;
  expiresAt: Date | null;
}) {
  const { serverId, subject, userId, ...data } = input;
  return secretsChanged(
    await prisma.oAuthCredential.upsert({
      where: { serverId_subject: { serverId, subject } },
      create: { serverId, subject, userId: userId ?? "", ...data },
      update: { ...data, ...(userId ? { userId } : {}) },
    }),
  );
}

export async function deleteCredential({ serverId, subject }: { serverId: string; subject: string }) {
  return secretsChanged(await prisma.oAuthCredential.deleteMany({ where: { serverId, subject } }));
}

export function createFlow(input: { stateHash: string; workspaceId: string; serverId: string; userId: string; flowSecret: string; expiresAt: Date }) {
  return prisma.oAuthFlow.create({ data: input });
}

export function findFlow({ stateHash }: { stateHash: string }) {
  return prisma.oAuthFlow.findUnique({ where: { stateHash }, omit: { flowSecret: false } });
}

/** Marks the flow used; false when another request used it first. */
export async function useFlow({ id }: { id: string }): Promise<boolean> {
  const { count } = await prisma.oAuthFlow.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } });
  return count === 1;
}

/** Flows that can no longer be used are dropped when new ones start. */
export function deleteStaleFlows({ before }: { before: Date }) {
  return prisma.oAuthFlow.deleteMany({ where: { expiresAt: { lt: before } } });
}

/** The server a callback finishes for, with its pre-registered client secret. */
export function findServerForFlow({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.server.findFirst({ where: { workspaceId, id }, omit: { headersSecret: false, oauthClientSecret: false, idpClientSecret: false } });
}

export function findUserName({ id }: { id: string }) {
  return prisma.user.findUnique({ where: { id }, select: { name: true } });
}

/** Every stored token of a server (all members' and the shared one). */
export async function deleteServerCredentials({ serverId }: { serverId: string }) {
  const { count } = await prisma.oAuthCredential.deleteMany({ where: { serverId } });
  return secretsChanged(count);
}

/** Keeps only the newest trace of a kind per (server, subject). */
export function upsertTrace(input: { workspaceId: string; serverId: string; subject: string; kind: string; userId: string | null; steps: string }) {
  const { serverId, subject, kind, ...data } = input;
  return prisma.oAuthTrace.upsert({
    where: { serverId_subject_kind: { serverId, subject, kind } },
    create: { serverId, subject, kind, ...data },
    update: { ...data, createdAt: new Date() },
  });
}

export function findTraces({ serverId, subjects }: { serverId: string; subjects: string[] }) {
  return prisma.oAuthTrace.findMany({ where: { serverId, subject: { in: subjects } } });
}

export function findTrace({ serverId, subject, kind }: { serverId: string; subject: string; kind: string }) {
  return prisma.oAuthTrace.findUnique({ where: { serverId_subject_kind: { serverId, subject, kind } } });
}

export function findUserNames({ ids }: { ids: string[] }) {
  return prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

/** When the member's ID token from an IdP expires (lib/identity/sso owns the token; this reads only its expiry). */
export function findIdentityExpiry({ userId, issuer }: { userId: string; issuer: string }) {
  return prisma.identityToken.findUnique({ where: { userId_issuer: { userId, issuer } }, select: { expiresAt: true } });
}
