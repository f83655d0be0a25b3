import { config } from "@/lib/core/config";
import type { ConsoleFrame } from "./protocol";
import { DEFAULT_MAX_MESSAGE_BYTES } from "./protocol";
import { piece } from "@/lib/core/runtime";

// The relay's state lives in the process runtime: lib/start's graph owns the sockets, while
// Next's route handlers (another module graph in the same process) open sessions over them.

/** A connected agent, as the rest of the console sees it. */
export interface LinkHandle {
  agentId: string;
  workspaceId: string;
  /** Accepted server names announced in hello, mapped to their Server row ids. */
  servers: ReadonlyMap<string, string>;
  /** The smaller of the console's and the agent's caps on one message. */
  maxMessageBytes: number;
  /** Sends a frame (`encoded`: its JSON, when the caller has it already); false when the socket is no longer open. */
  send(frame: ConsoleFrame, encoded?: string): boolean;
  /** Bytes queued on the socket and not yet written. */
  bufferedAmount(): number;
  close(code: number, reason: string): void;
}

/** Frames that concern one session, routed from the agent to its endpoint. */
export type SessionFrame =
  | { type: "opened"; pid: number | null }
  | { type: "message"; message: Record<string, unknown> }
  | { type: "stderr"; chunk: string }
  | { type: "exit"; code: number | null; signal: string | null; stderrTail: string[]; error?: string }
  | { type: "error"; code: string; message: string; request?: string | number };

/** The console end of one relayed session (a RelayTransport). */
export interface SessionEndpoint {
  agentId: string;
  serverName: string;
  deliver(frame: SessionFrame): void;
  /** The link dropped; the agent keeps the process for its grace period. */
  linkDown(reason: string): void;
  /** The agent came back and kept this session. */
  linkUp(): void;
  /** The session is over for good (grace period over, agent revoked). */
  end(reason: string): void;
}

/** How a server process of an agent last ended, kept for the UI. */
export interface ServerExitRecord {
  code: number | null;
  signal: string | null;
  error: string | null;
  stderrTail: string[];
  at: string;
}

export interface HubState {
  links: Map<string, LinkHandle>;
  sessions: Map<string, SessionEndpoint>;
  grace: Map<string, ReturnType<typeof setTimeout>>;
  exits: Map<string, ServerExitRecord>;
  stderr: Map<string, string[]>;
  /** The roots the agent last left out of a server's `roots/list` answer. */
  rootsRefused: Map<string, RefusedRoot[]>;
  maxMessageBytes: number;
  /** The workspace event bus (lib/core/events), given by lib/start: the relay imports no domain. */
  publish: (workspaceId: string, event: RelayEvent) => void;
  /** Agent lookups, given by lib/start. */
  agents: AgentDirectory;
  /** Agents connected to other console instances, with the server names they announced (lib/core/cluster). */
  remote: Map<string, { instanceId: string; servers: Set<string> }>;
  /** Told when an agent's link here comes up (with its server names) or goes (null): lib/core/cluster tells the other instances. */
  linkChanged: (agentId: string, servers: string[] | null) => void;
  /** Asks the instance an agent is connected to to drop it (the agent was revoked through this one). */
  revokeElsewhere: (agentId: string) => void;
  /** Told when an agent's link here comes up, with its servers (name → server id) and those whose sessions it kept. */
  linkUp: (agentId: string, servers: ReadonlyMap<string, string>, resumed: ReadonlySet<string>) => void;
}

/** What the relay needs to know of agents, handed in by lib/start (the relay imports no domain). */
export interface AgentDirectory {
  /** The agent a token belongs to (unrevoked), or null. */
  findByTokenHash(tokenHash: string): Promise<{ id: string; workspaceId: string; name: string } | null>;
  /** Matches announced names to the workspace's servers: each gets a server id or why it was refused. */
  announceServers(input: { workspaceId: string; agentId: string; names: string[] }): Promise<({ name: string; serverId: string } | { name: string; refused: string })[]>;
  /** Records that the agent was seen (and its host name and version, on hello). */
  touch(input: { id: string; hostname?: string; version?: string }): Promise<unknown>;
}

/** What the relay tells browsers: an agent's server became reachable or not. */
export type RelayEvent = { type: "server"; serverId: string; status: "connected" | "disconnected" | "offline" };

const STDERR_LINES = 200;

/** The process-wide relay state. */
export function relayHub(): HubState {
  return piece("relay", () => ({
    links: new Map(),
    sessions: new Map(),
    grace: new Map(),
    exits: new Map(),
    stderr: new Map(),
    rootsRefused: new Map(),
    maxMessageBytes: config().relayMaxBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    publish: () => undefined,
    agents: {
      findByTokenHash: () => Promise.reject(new Error("the relay was not attached")),
      announceServers: () => Promise.reject(new Error("the relay was not attached")),
      touch: () => Promise.resolve(),
    },
    remote: new Map(),
    linkChanged: () => undefined,
    revokeElsewhere: () => undefined,
    linkUp: () => undefined,
  }));
}

const key = (agentId: string, name: string) => `${agentId}\u0000${name}`;

/** Whether the agent has a live, greeted connection to this instance. */
export function isAgentHere(agentId: string): boolean {
  return relayHub().links.has(agentId);
}

/** Whether the agent has a live, greeted connection to any console instance. */
export function isAgentOnline(agentId: string): boolean {
  return relayHub().links.has(agentId) || relayHub().remote.has(agentId);
}

/** Whether the agent is connected to this instance and announced this server name in its current connection. */
export function isAgentServerHere(agentId: string, serverName: string): boolean {
  return relayHub().links.get(agentId)?.servers.has(serverName) ?? false;
}

/** Whether the agent serves this server name through any console instance. */
export function isAgentServerOnline(agentId: string, serverName: string): boolean {
  return isAgentServerHere(agentId, serverName) || (relayHub().remote.get(agentId)?.servers.has(serverName) ?? false);
}

/** The other instance the agent is connected to (and serves this name through), when it is not connected here. */
export function agentInstance(agentId: string, serverName: string): string | null {
  const hub = relayHub();
  if (hub.links.has(agentId)) return null;
  const remote = hub.remote.get(agentId);
  return remote?.servers.has(serverName) ? remote.instanceId : null;
}

/** Another instance says an agent is connected to it (`servers`) or no longer is (null). */
export function setRemoteLink(agentId: string, instanceId: string, servers: string[] | null): void {
  const { remote } = relayHub();
  if (servers) remote.set(agentId, { instanceId, servers: new Set(servers) });
  else if (remote.get(agentId)?.instanceId === instanceId) remote.delete(agentId);
}

/** An instance stopped: its agents will reconnect somewhere. */
export function forgetInstanceLinks(instanceId: string): void {
  const { remote } = relayHub();
  for (const [agentId, link] of remote) if (link.instanceId === instanceId) remote.delete(agentId);
}

/** The agents connected here, for an instance that just joined. */
export function localLinks(): { agentId: string; servers: string[] }[] {
  return [...relayHub().links.values()].map((l) => ({ agentId: l.agentId, servers: [...l.servers.keys()] }));
}

export function endpointsOf(agentId: string): [string, SessionEndpoint][] {
  return [...relayHub().sessions].filter(([, e]) => e.agentId === agentId);
}

/** Registers a greeted link (replacing an older one of the same agent) and resumes kept sessions. */
export function registerLink(link: LinkHandle, kept: string[]): void {
  const hub = relayHub();
  const previous = hub.links.get(link.agentId);
  hub.links.set(link.agentId, link);
  if (previous && previous !== link) previous.close(4005, "replaced by a newer connection");
  clearTimeout(hub.grace.get(link.agentId));
  hub.grace.delete(link.agentId);
  hub.remote.delete(link.agentId);
  hub.linkChanged(link.agentId, [...link.servers.keys()]);
  const keep = new Set(kept);
  for (const [id, endpoint] of endpointsOf(link.agentId)) {
    if (keep.has(id)) endpoint.linkUp();
    else {
      hub.sessions.delete(id);
      endpoint.end("the agent restarted and no longer runs this session");
    }
  }
}

/** A link closed: sessions lose their in-flight requests now and end after the grace period. */
export function linkClosed(link: LinkHandle, graceMs: number, reason: string): void {
  const hub = relayHub();
  if (hub.links.get(link.agentId) !== link) return;
  hub.links.delete(link.agentId);
  hub.linkChanged(link.agentId, null);
  const endpoints = endpointsOf(link.agentId);
  for (const [, endpoint] of endpoints) endpoint.linkDown(reason);
  if (endpoints.length === 0) return;
  clearTimeout(hub.grace.get(link.agentId));
  const timer = setTimeout(() => endSessions(link.agentId, "agent offline: it did not come back within its grace period"), graceMs);
  timer.unref?.();
  hub.grace.set(link.agentId, timer);
}

/** Ends every session of an agent at once (revocation, grace over). */
export function endSessions(agentId: string, reason: string): void {
  const hub = relayHub();
  clearTimeout(hub.grace.get(agentId));
  hub.grace.delete(agentId);
  for (const [id, endpoint] of endpointsOf(agentId)) {
    hub.sessions.delete(id);
    endpoint.end(reason);
  }
}

/** Closes a revoked agent's socket at once and ends its sessions. */
export function revokeLink(agentId: string): void {
  const link = relayHub().links.get(agentId);
  if (!link && relayHub().remote.has(agentId)) relayHub().revokeElsewhere(agentId);
  endSessions(agentId, "agent revoked");
  if (link) {
    relayHub().links.delete(agentId);
    relayHub().linkChanged(agentId, null);
    link.close(4001, "agent revoked");
  }
}

export function recordExit(agentId: string, serverName: string, exit: Omit<ServerExitRecord, "at">): void {
  relayHub().exits.set(key(agentId, serverName), { ...exit, at: new Date().toISOString() });
}

export function recordStderr(agentId: string, serverName: string, chunk: string): void {
  const hub = relayHub();
  const k = key(agentId, serverName);
  const lines = hub.stderr.get(k) ?? [];
  lines.push(...chunk.split(/\r?\n/).filter((l) => l.length > 0).map((l) => l.slice(0, 4096)));
  if (lines.length > STDERR_LINES) lines.splice(0, lines.length - STDERR_LINES);
  hub.stderr.set(k, lines);
}

/** A root the agent refused to pass on: missing on its machine, or not allowed by its config. */
export interface RefusedRoot {
  uri: string;
  reason: string;
  at: string;
}

export function recordRootsRefused(agentId: string, serverName: string, refused: { uri: string; reason: string }[]): void {
  const at = new Date().toISOString();
  relayHub().rootsRefused.set(key(agentId, serverName), refused.map((r) => ({ ...r, at })));
}

/** The last exit, recent stderr lines and last refused roots of an agent's server (live while it runs). */
export function serverOutput(agentId: string, serverName: string): { lastExit: ServerExitRecord | null; stderr: string[]; rootsRefused: RefusedRoot[] } {
  const hub = relayHub();
  const k = key(agentId, serverName);
  return { lastExit: hub.exits.get(k) ?? null, stderr: hub.stderr.get(k) ?? [], rootsRefused: hub.rootsRefused.get(k) ?? [] };
}

/** Publishes to the workspace event bus (with an id, so a reconnecting browser gets it too). */
export function notify(workspaceId: string, event: RelayEvent): void {
  relayHub().publish(workspaceId, event);
}
