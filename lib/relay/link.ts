import type { WebSocket } from "ws";
import { config } from "@/lib/core/config";
import { CloseCode, decodeAgentFrame, HEARTBEAT_MS, DEAD_AFTER_MS, RELAY_PROTOCOL_VERSION, type AgentFrame, type ConsoleFrame, type HelloFrame } from "./protocol";
import { linkClosed, notify, recordExit, recordRootsRefused, recordStderr, registerLink, relayHub, type LinkHandle } from "./hub";

const HELLO_TIMEOUT_MS = 10_000;

/** The agent a socket was authenticated as. */
interface AuthenticatedAgent {
  id: string;
  workspaceId: string;
  name: string;
}

interface LinkTimings {
  heartbeatMs: number;
  deadAfterMs: number;
}

function relayTimings(): LinkTimings {
  const heartbeatMs = config().relayHeartbeatMs ?? HEARTBEAT_MS;
  return { heartbeatMs, deadAfterMs: heartbeatMs === HEARTBEAT_MS ? DEAD_AFTER_MS : heartbeatMs * 3 };
}

/**
 * The console's end of one agent's socket: waits for hello, registers the agent's servers,
 * routes session frames to their transports (only this agent's sessions), answers pings,
 * and notices a dead link after `deadAfterMs` of silence.
 */
export function serveLink(ws: WebSocket, agent: AuthenticatedAgent, timings: LinkTimings = relayTimings()): void {
  const hub = relayHub();
  let greeted: LinkHandle | null = null;
  let graceMs = 0;
  let lastHeard = Date.now();
  let badFrames = 0;

  const maxUnread = maxUnreadBytes(hub.maxMessageBytes);
  const send = (frame: ConsoleFrame, encoded?: string): boolean => {
    if (ws.readyState !== ws.OPEN) return false;
    // An agent that sends but does not read would make the console buffer without bound.
    if (ws.bufferedAmount > maxUnread) {
      console.warn(`[relay] agent ${agent.name} (${agent.id}) is not reading (${ws.bufferedAmount} bytes unread); dropping the link`);
      ws.terminate();
      return false;
    }
    ws.send(encoded ?? JSON.stringify(frame));
    return true;
  };
  const helloTimer = setTimeout(() => ws.close(CloseCode.unauthorized, "no hello"), HELLO_TIMEOUT_MS);
  const heartbeat = setInterval(() => {
    if (Date.now() - lastHeard > timings.deadAfterMs) {
      console.warn(`[relay] agent ${agent.name} (${agent.id}) silent for ${Date.now() - lastHeard} ms; dropping the link`);
      ws.terminate();
    } else send({ type: "ping", t: Date.now() });
  }, timings.heartbeatMs);

  const hello = async (frame: HelloFrame) => {
    if (frame.version !== RELAY_PROTOCOL_VERSION) {
      send({ type: "error", code: "bad_version", message: `The console speaks relay protocol ${RELAY_PROTOCOL_VERSION}, the agent ${frame.version}` });
      ws.close(CloseCode.badVersion, `console speaks version ${RELAY_PROTOCOL_VERSION}`);
      return;
    }
    const announced = [...new Set(frame.servers.map((s) => s.name))];
    const max = maxAgentServers();
    const names = announced.slice(0, max);
    if (announced.length > max) {
      const over = announced.slice(max);
      const listed = over.slice(0, 5).map((n) => `"${n}"`).join(", ");
      send({ type: "error", code: "unknown_server", message: `${over.length} server(s) refused (${listed}${over.length > 5 ? ", …" : ""}): an agent may serve at most ${max} (SWITCHBOARD_MAX_AGENT_SERVERS)` });
    }
    const outcomes = await hub.agents.announceServers({ workspaceId: agent.workspaceId, agentId: agent.id, names });
    await hub.agents.touch({ id: agent.id, hostname: frame.agent.hostname, version: frame.agent.version });
    if (ws.readyState !== ws.OPEN) return;
    const servers = new Map<string, string>();
    for (const o of outcomes) {
      if ("serverId" in o) servers.set(o.name, o.serverId);
      else send({ type: "error", code: "unknown_server", message: `"${o.name}" is not served through this agent: ${o.refused}` });
    }
    graceMs = frame.graceMs;
    greeted = {
      agentId: agent.id,
      workspaceId: agent.workspaceId,
      servers,
      maxMessageBytes: Math.min(hub.maxMessageBytes, frame.maxMessageBytes ?? hub.maxMessageBytes),
      send,
      bufferedAmount: () => ws.bufferedAmount,
      close: (code, reason) => ws.close(code, reason),
    };
    const kept = frame.sessions.filter((id) => hub.sessions.get(id)?.agentId === agent.id);
    registerLink(greeted, kept);
    send({ type: "welcome", version: RELAY_PROTOCOL_VERSION, agentId: agent.id, sessions: kept, maxMessageBytes: hub.maxMessageBytes, features: ["roots"] });
    const resumed = new Set(kept.map((id) => hub.sessions.get(id)?.serverName));
    for (const [name, serverId] of servers) notify(agent.workspaceId, { type: "server", serverId, status: resumed.has(name) ? "connected" : "disconnected" });
    hub.linkUp(agent.id, servers, resumed as ReadonlySet<string>);
    console.log(`[relay] agent ${agent.name} (${agent.id}) online with ${servers.size} server(s)`);
  };

  const onFrame = (frame: AgentFrame) => {
    if (frame.type === "ping") return void send({ type: "pong", t: frame.t });
    if (frame.type === "pong") return;
    if (frame.type === "hello") {
      if (greeted) return void send({ type: "error", code: "bad_frame", message: "hello was sent already" });
      clearTimeout(helloTimer);
      hello(frame).catch((err: Error) => {
        console.error("[relay] hello failed", err);
        ws.close(1011, "internal error");
      });
      return;
    }
    if (!greeted) return void send({ type: "error", code: "bad_frame", message: "send hello first" });
    if (frame.type === "error" && !frame.session) return void console.warn(`[relay] agent ${agent.id}: ${frame.message}`);
    const endpoint = hub.sessions.get(frame.session!);
    if (!endpoint || endpoint.agentId !== agent.id) {
      if (frame.type !== "error" && frame.type !== "exit") send({ type: "error", session: frame.session, code: "unknown_session", message: "No such session" });
      return;
    }
    if (frame.type === "stderr") recordStderr(agent.id, endpoint.serverName, frame.chunk);
    if (frame.type === "roots") return void recordRootsRefused(agent.id, endpoint.serverName, frame.refused);
    if (frame.type === "exit") recordExit(agent.id, endpoint.serverName, { code: frame.code, signal: frame.signal, error: frame.error ?? null, stderrTail: frame.stderrTail });
    if (frame.type === "error" && frame.code === "unknown_server") console.warn(`[relay] agent ${agent.id} refused server "${endpoint.serverName}": ${frame.message}`);
    const { type } = frame;
    if (type === "opened") endpoint.deliver({ type, pid: frame.pid });
    else if (type === "message") endpoint.deliver({ type, message: frame.message });
    else if (type === "stderr") endpoint.deliver({ type, chunk: frame.chunk });
    else if (type === "exit") endpoint.deliver({ type, code: frame.code, signal: frame.signal, stderrTail: frame.stderrTail, error: frame.error });
    else endpoint.deliver({ type, code: frame.code, message: frame.message, ...(frame.request === undefined ? {} : { request: frame.request }) });
  };

  ws.on("message", (data: Buffer) => {
    lastHeard = Date.now();
    const decoded = decodeAgentFrame(data, hub.maxMessageBytes);
    if (decoded.ok) return onFrame(decoded.frame);
    if (++badFrames % 1000 === 1) console.warn(`[relay] agent ${agent.id}: ${badFrames} bad frame(s), latest: ${decoded.error.message}`);
    if (!/"type"\s*:\s*"error"/.test(data.subarray(0, 4096).toString("utf8"))) send(decoded.error);
  });
  ws.on("error", (err) => console.warn(`[relay] agent ${agent.id} socket error: ${err.message}`));
  ws.on("close", (code, reason) => {
    clearTimeout(helloTimer);
    clearInterval(heartbeat);
    if (!greeted) return;
    const why = `the link to agent "${agent.name}" dropped (${code}${reason.length ? ` ${reason.toString()}` : ""})`;
    const wasCurrent = hub.links.get(agent.id) === greeted;
    linkClosed(greeted, graceMs, why);
    if (!wasCurrent) return;
    void hub.agents.touch({ id: agent.id }).catch(() => undefined);
    for (const serverId of greeted.servers.values()) notify(agent.workspaceId, { type: "server", serverId, status: "offline" });
    console.log(`[relay] agent ${agent.name} (${agent.id}) offline: ${why}`);
  });
}

/** Servers one agent may announce in its hello (SWITCHBOARD_MAX_AGENT_SERVERS; default 100). */
function maxAgentServers(): number {
  return config().maxAgentServers;
}

/** Bytes the console queues for an agent that is not reading before it drops the link (SWITCHBOARD_RELAY_MAX_UNREAD_BYTES). */
function maxUnreadBytes(maxMessageBytes: number): number {
  return config().relayMaxUnreadBytes ?? 2 * maxMessageBytes;
}
