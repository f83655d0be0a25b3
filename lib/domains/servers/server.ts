import "server-only";
import { audit } from "@/lib/core/audit/server";
import { assertIdpTokenEndpoint, forgetServerCredentials } from "@/lib/domains/server-oauth/server";
import type { Principal } from "@/lib/core/access";
import type { AuthMode, ClientAuth } from "@/lib/domains/server-oauth";
import { decryptJson, encryptJson } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { assertUrlAllowed } from "@/lib/core/net/server";
import { connectServer, disconnectServer, getConnection, notifyRootsChanged, refuseElsewhere, upstream } from "@/lib/domains/sessions/server";
import { archivedError } from "./archive";
import { cacheEpoch, piece } from "@/lib/core/runtime";
import { describeServerChanges } from "./changes";
import { headerColumns, toDto } from "./dto";
import type { CapabilityKind, Complete, Completion, CreateServer, ServerDto, SessionInfo, UpdateServer } from "./index";
import * as q from "./queries";
import { assertServerRoom } from "./quota";
import type { ServerRow, ServerSecretRow } from "./queries";

export type { ServerSecretRow } from "./queries";

// Every call reads its server: keep the row briefly. Any server write empties the cache on every
// instance (forgetCache in ./queries and the other writers); the expiry bounds what a missed
// announcement (the instance channel down) can leave behind.
const SERVER_CACHE_MS = 10_000;
const serverCache = () => piece("serverCache", () => new Map<string, { row: ServerSecretRow; until: number }>());
export { archiveAgentServers, archiveServer, listArchivedServers, purgeServer, restoreServer } from "./archive";
export { addDemoServer } from "./demo";
export { exportServers, importServers } from "./servers-file";

/** The active servers (archived ones: listArchivedServers). */
export async function listServers(principal: Principal): Promise<ServerDto[]> {
  return (await q.listServers({ workspaceId: principal.workspaceId })).map(toDto);
}

/** One server, archived ones too (with `archivedAt`), so permalinks and history still render. */
export async function getServer(principal: Principal, id: string): Promise<ServerDto> {
  return toDto(await requireServer(principal, id));
}

/**
 * The server row with its encrypted headers, for everything that talks to the server (calls,
 * connect, ping, completions, subscriptions, app tools). Other workspaces' ids are 404; an
 * archived server is 409 here, so no route has to check it.
 */
export function getServerForCall(principal: Principal, id: string): Promise<ServerSecretRow> {
  return getServerActingAs(principal, id);
}

/** Like getServerForCall, for a person acting through another door (the gateway). */
export async function getServerActingAs(principal: Pick<Principal, "workspaceId" | "userId">, id: string): Promise<ServerSecretRow> {
  const key = `${principal.workspaceId}:${id}`;
  const cached = serverCache().get(key);
  let row = cached && cached.until > Date.now() ? cached.row : null;
  if (!row) {
    const epoch = cacheEpoch("serverCache");
    row = await q.findServerWithSecrets({ workspaceId: principal.workspaceId, id });
    if (!row) throw notFound("Server");
    if (serverCache().size > 10_000) serverCache().clear();
    if (epoch === cacheEpoch("serverCache")) serverCache().set(key, { row, until: Date.now() + SERVER_CACHE_MS });
  }
  if (row.archivedAt) throw archivedError(row);
  return { ...row, actingUserId: principal.userId };
}

/** The server row with its encrypted headers for work the console does on its own (the task poller); null if gone. */
export function findServerForWork({ workspaceId, id }: { workspaceId: string; id: string }): Promise<ServerSecretRow | null> {
  return q.findServerWithSecrets({ workspaceId, id });
}

export async function createServer(principal: Principal, input: CreateServer): Promise<ServerDto> {
  assertMachineCredentials(input);
  await assertNameFree(principal.workspaceId, input.name);
  await assertServerRoom(principal.workspaceId);
  await assertUrlAllowed({ url: input.url, workspaceId: principal.workspaceId });
  await assertIdpTokenEndpoint({ workspaceId: principal.workspaceId, idpIssuer: input.idpIssuer ?? null, idpTokenEndpoint: input.idpTokenEndpoint ?? null });
  const row = await q.createServer({
    data: {
      workspaceId: principal.workspaceId,
      name: input.name,
      kind: "http",
      url: input.url,
      transport: input.transport,
      protocolEra: input.protocolEra,
      timeoutMs: input.timeoutMs,
      maxTotalTimeoutMs: input.maxTotalTimeoutMs ?? null,
      ...headerColumns(input.headers),
      authMode: input.authMode,
      oauthClientId: input.oauthClientId ?? null,
      oauthClientSecret: input.oauthClientId && input.oauthClientSecret ? encryptJson(input.oauthClientSecret) : null,
      oauthClientAuth: input.oauthClientAuth ?? null,
      oauthKeyAlg: input.oauthKeyAlg ?? null,
      oauthScope: input.oauthScope ?? null,
      idpIssuer: input.idpIssuer ?? null,
      idpTokenEndpoint: input.idpTokenEndpoint ?? null,
      idpClientId: input.idpClientId ?? null,
      idpClientSecret: input.idpClientSecret ? encryptJson(input.idpClientSecret) : null,
      oauthIssuer: input.oauthIssuer ?? null,
    },
  });
  if (!row) throw nameTaken(input.name);
  await audit(principal, { action: "server.created", target: { type: "server", id: row.id, name: row.name }, details: { kind: "http", headers: Object.keys(input.headers).sort(), ...(input.authMode !== "none" ? { authMode: input.authMode } : {}) } });
  return toDto(row);
}

export async function updateServer(principal: Principal, id: string, input: UpdateServer): Promise<ServerDto> {
  const current = await getServerForCall(principal, id);
  if (current.kind === "demo" && (input.url || input.transport || input.headers || input.authMode)) {
    throw new SwitchboardError("bad_request", "The demo server runs inside the console: it has no URL, headers or sign-in to edit");
  }
  if (input.name && input.name !== current.name) await assertNameFree(principal.workspaceId, input.name);
  if (input.url !== undefined) await assertUrlAllowed({ url: input.url, workspaceId: principal.workspaceId });
  // An agent server's name is the name its agent announced: the relay finds it by that name.
  if (current.kind !== "http" && current.kind !== "demo" && (input.url || input.transport || input.headers || (input.name && input.name !== current.name))) {
    throw new SwitchboardError("bad_request", "Only the timeouts, roots, protocol era and unattended policy of an agent server can be edited; its name comes from the agent's config");
  }
  const before = current.headersSecret ? decryptJson<Record<string, string>>(current.headersSecret) : {};
  let headers: Record<string, string> | undefined;
  if (input.headers) {
    headers = { ...before };
    for (const [name, value] of Object.entries(input.headers)) {
      if (value === null) delete headers[name];
      else headers[name] = value;
    }
  }
  // Header values were given for one origin: a URL moving to another origin keeps only the
  // values re-entered in this same request, so a secret never follows the URL to a new host.
  let headersDropped: string[] = [];
  let tokensDropped = 0;
  if (input.url !== undefined && current.url && new URL(input.url).origin !== new URL(current.url).origin) {
    const reentered = Object.fromEntries(Object.entries(input.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== null));
    headersDropped = Object.keys(before).filter((name) => !(name in reentered));
    if (headersDropped.length || headers) headers = reentered;
    tokensDropped = await forgetServerCredentials(id);
  }
  const oauthChanged = [input.authMode, input.oauthClientId, input.oauthClientSecret, input.oauthClientAuth, input.oauthKeyAlg, input.oauthScope, input.idpIssuer, input.idpTokenEndpoint, input.idpClientId, input.idpClientSecret, input.oauthIssuer].some((v) => v !== undefined);
  assertMachineCredentials({
    authMode: input.authMode ?? (current.authMode as AuthMode),
    oauthClientId: input.oauthClientId === undefined ? current.oauthClientId : input.oauthClientId,
    oauthClientSecret: input.oauthClientSecret === undefined ? (current.oauthClientSecret ? "kept" : null) : input.oauthClientSecret,
    oauthClientAuth: input.oauthClientAuth === undefined ? (current.oauthClientAuth as ClientAuth | null) : input.oauthClientAuth,
    oauthKeyAlg: input.oauthKeyAlg === undefined ? current.oauthKeyAlg : input.oauthKeyAlg,
    idpIssuer: input.idpIssuer === undefined ? current.idpIssuer : input.idpIssuer,
    idpClientId: input.idpClientId === undefined ? current.idpClientId : input.idpClientId,
  });
  if (input.idpIssuer !== undefined || input.idpTokenEndpoint !== undefined) {
    await assertIdpTokenEndpoint({
      workspaceId: principal.workspaceId,
      idpIssuer: input.idpIssuer === undefined ? current.idpIssuer : input.idpIssuer,
      idpTokenEndpoint: input.idpTokenEndpoint === undefined ? current.idpTokenEndpoint : input.idpTokenEndpoint,
    });
  }
  const eraChanged = input.protocolEra !== undefined && input.protocolEra !== current.protocolEra;
  const connectionChanged = input.url !== undefined || input.transport !== undefined || eraChanged || headers !== undefined || oauthChanged;
  const row = await q.updateServer({
    workspaceId: principal.workspaceId,
    id,
    data: {
      name: input.name,
      url: input.url,
      transport: input.transport,
      protocolEra: input.protocolEra,
      timeoutMs: input.timeoutMs,
      maxTotalTimeoutMs: input.maxTotalTimeoutMs,
      roots: input.roots ? JSON.stringify(input.roots) : undefined,
      unattendedPolicy: input.unattendedPolicy,
      unattendedWaitMs: input.unattendedWaitMs,
      shareProcess: input.shareProcess,
      pinDefinitions: input.pinDefinitions,
      ...(input.pinDefinitions && !current.pinDefinitions && !current.approvedSnapshotId ? { approvedSnapshotId: await q.latestSnapshotId({ serverId: id }) } : {}),
      ...(headers ? headerColumns(headers) : {}),
      authMode: input.authMode,
      oauthClientId: input.oauthClientId,
      ...(input.oauthClientId === null || input.oauthClientSecret === null ? { oauthClientSecret: null } : {}),
      ...(typeof input.oauthClientSecret === "string" ? { oauthClientSecret: encryptJson(input.oauthClientSecret) } : {}),
      oauthClientAuth: input.oauthClientAuth,
      oauthKeyAlg: input.oauthKeyAlg,
      oauthScope: input.oauthScope,
      idpIssuer: input.idpIssuer,
      idpTokenEndpoint: input.idpTokenEndpoint,
      idpClientId: input.idpClientId,
      ...(input.idpClientSecret === null ? { idpClientSecret: null } : typeof input.idpClientSecret === "string" ? { idpClientSecret: encryptJson(input.idpClientSecret) } : {}),
      oauthIssuer: input.oauthIssuer,
      // The remembered era belongs to the old endpoint, or to an era setting that no longer holds.
      ...(input.url !== undefined || eraChanged ? { eraHint: null, eraHintAt: null } : {}),
    },
  });
  const changes = describeServerChanges(current, input, before);
  const renamed = input.name && input.name !== current.name ? { previousName: current.name } : {};
  const dropped = {
    ...(headersDropped.length ? { headersDroppedForNewOrigin: headersDropped } : {}),
    ...(tokensDropped ? { oauthTokensDroppedForNewOrigin: tokensDropped } : {}),
  };
  await audit(principal, { action: "server.updated", target: { type: "server", id, name: row.name }, details: { ...changes, ...renamed, ...dropped } });
  // A live session still uses the old URL or headers: end it; the next request reconnects.
  if (connectionChanged || input.timeoutMs !== undefined) await disconnectServer(id, principal.workspaceId);
  else if (input.roots && JSON.stringify(input.roots) !== current.roots) await notifyRootsChanged(id);
  return toDto((await q.findServer({ workspaceId: principal.workspaceId, id })) ?? row);
}

export async function connect(principal: Principal, id: string): Promise<SessionInfo> {
  return connectServer(await getServerForCall(principal, id));
}

export async function disconnect(principal: Principal, id: string): Promise<void> {
  refuseElsewhere(await requireServer(principal, id));
  await disconnectServer(id, principal.workspaceId);
}

/** Everything the server offers of one kind, every page merged. */
export async function listCapability(principal: Principal, id: string, kind: CapabilityKind): Promise<unknown[]> {
  const server = await getServerForCall(principal, id);
  const { connection } = await getConnection(server);
  return upstream(server, () => connection.list(kind));
}

/** `completion/complete` on the live session. 400 if the server does not declare `completions`. */
export async function completeArgument(principal: Principal, id: string, input: Complete): Promise<Completion> {
  const server = await getServerForCall(principal, id);
  const { connection } = await getConnection(server);
  if (!connection.info.capabilities?.completions) {
    throw new SwitchboardError("bad_request", `"${server.name}" does not offer argument completions (completions)`);
  }
  return upstream(server, () => connection.complete(input));
}

async function requireServer(principal: Principal, id: string): Promise<ServerRow> {
  const row = await q.findServer({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Server");
  return row;
}

async function assertNameFree(workspaceId: string, name: string) {
  const names = await q.findServerNames({ workspaceId });
  if (names.some((s) => s.name === name)) throw nameTaken(name);
}

function nameTaken(name: string): SwitchboardError {
  return new SwitchboardError("conflict", `A server named "${name}" exists already`);
}


/**
 * Machine mode needs a client id and its secret (or, for private_key_jwt, a private key and its
 * algorithm); enterprise-managed needs the IdP's issuer and client and the authorization server's client.
 */
function assertMachineCredentials(input: { authMode?: AuthMode; oauthClientId?: string | null; oauthClientSecret?: string | null; oauthClientAuth?: ClientAuth | null; oauthKeyAlg?: string | null; idpIssuer?: string | null; idpClientId?: string | null }): void {
  if (input.authMode === "enterprise-managed") {
    const missing = [!input.idpIssuer && "idpIssuer", !input.idpClientId && "idpClientId", !input.oauthClientId && "oauthClientId", !input.oauthClientSecret && "oauthClientSecret"].filter(Boolean);
    if (missing.length) throw new SwitchboardError("unprocessable", `Enterprise-managed authorization needs ${missing.join(", ")}`);
    return;
  }
  if (input.authMode !== "oauth-machine") return;
  const method = input.oauthClientAuth ?? "client_secret_basic";
  const missing = [
    !input.oauthClientId && "oauthClientId",
    !input.oauthClientSecret && `oauthClientSecret${method === "private_key_jwt" ? " (the private key)" : method === "jwt_bearer" ? " (the assertion)" : ""}`,
    method === "private_key_jwt" && !input.oauthKeyAlg && "oauthKeyAlg",
  ].filter(Boolean);
  if (missing.length) throw new SwitchboardError("unprocessable", `Machine credentials (${method}) need ${missing.join(", ")}`);
}
export { restoreAgentSessions } from "./reconnect";
export { setApprovedSnapshot } from "./queries";
