import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { hashToken } from "@/lib/core/crypto/tokens";
import { ENVELOPE_ALLOWANCE_BYTES, RELAY_PATH } from "./protocol";
import { relayHub, type AgentDirectory, type RelayEvent } from "./hub";
import { serveLink } from "./link";

/**
 * The relay's WebSocket endpoint, attached by lib/start (App Router handlers cannot take
 * upgrades). An agent authenticates the upgrade with its token (`Authorization: Bearer …`);
 * an unknown or revoked token gets HTTP 401 and no socket.
 */
export function attachRelay({ publish, agents }: { publish: (workspaceId: string, event: RelayEvent) => void; agents: AgentDirectory }) {
  const hub = relayHub();
  hub.publish = publish;
  hub.agents = agents;
  const wss = new WebSocketServer({ noServer: true, maxPayload: hub.maxMessageBytes + ENVELOPE_ALLOWANCE_BYTES, perMessageDeflate: false });

  const reject = (socket: Duplex, status: number, message: string) => {
    const body = JSON.stringify({ error: { code: status === 401 ? "unauthorized" : "internal", message } });
    socket.end(`HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : "Internal Server Error"}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  };

  return {
    handles: (req: IncomingMessage) => new URL(req.url ?? "/", "http://relay").pathname === RELAY_PATH,
    upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on("error", () => undefined);
      const header = req.headers.authorization ?? "";
      const token = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
      if (!token) return reject(socket, 401, "Send the agent token (Authorization: Bearer …)");
      agents.findByTokenHash(hashToken(token)).then(
        (agent) => {
          if (!agent) return reject(socket, 401, "Unknown or revoked agent token");
          wss.handleUpgrade(req, socket, head, (ws) => serveLink(ws, { id: agent.id, workspaceId: agent.workspaceId, name: agent.name }));
        },
        (err: Error) => {
          console.error("[relay] token lookup failed", err);
          reject(socket, 500, "Internal error");
        },
      );
    },
    close: () => {
      for (const ws of wss.clients) ws.close(1001, "console shutting down");
      wss.close();
    },
  };
}
