/**
 * The agent relay wire protocol, version 1. Runtime-neutral (zod only): the console and the agent
 * both import this file. One frame per WebSocket text message, a JSON object with a `type`.
 * A JSON-RPC message travels whole inside a `message` frame, never split or merged.
 */
import { z } from "zod";

/** Bumped on any incompatible change; a peer speaking another version is refused at hello. */
export const RELAY_PROTOCOL_VERSION = 1;
/** Default cap on one frame (and so on one JSON-RPC message), in bytes. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Room for the envelope around a message that is exactly at the cap. */
export const ENVELOPE_ALLOWANCE_BYTES = 64 * 1024;
export const HEARTBEAT_MS = 15_000;
/** Three missed heartbeats: the link is dead. */
export const DEAD_AFTER_MS = 45_000;
export const DEFAULT_GRACE_MS = 60_000;
/**
 * The WebSocket path on the console. It must not match any Next route: Next's own upgrade
 * listener (attached to the custom server on the first request) ends sockets whose path matches.
 */
export const RELAY_PATH = "/api/v1/relay";
/** Close codes (4000–4999 are free for applications). */
export const CloseCode = { revoked: 4001, unauthorized: 4003, badVersion: 4004, replaced: 4005, dead: 4008 } as const;

const SessionId = z.string().min(1).max(128);
/** Server names as announced by the agent and used by the console to ask for them. */
export const ServerNameSchema = z.string().min(1).max(100).regex(/^[^\u0000-\u001f]+$/, "control characters");

/** A JSON-RPC 2.0 message, checked only for shape; its content is the MCP peers' business. */
export const JsonRpcMessageSchema = z.looseObject({ jsonrpc: z.literal("2.0") });

/** Agent → console, first frame after the socket opens. */
export const HelloFrame = z.object({
  type: z.literal("hello"),
  version: z.number().int(),
  agent: z.object({
    version: z.string().max(50),
    hostname: z.string().max(255),
    platform: z.string().max(50),
  }),
  servers: z.array(z.object({ name: ServerNameSchema })).max(1000),
  /** Sessions whose processes are still alive from before a reconnect. */
  sessions: z.array(SessionId).max(10_000).default([]),
  /** How long the agent keeps processes alive while the link is down. */
  graceMs: z.number().int().min(0).max(3_600_000),
  /** The agent's own cap on one message; the console sends nothing larger (optional: older agents). */
  maxMessageBytes: z.number().int().positive().optional(),
});
/** Console → agent, the answer to hello. `sessions`: the ones to keep; the agent ends the rest. */
export const WelcomeFrame = z.object({
  type: z.literal("welcome"),
  version: z.number().int(),
  agentId: z.string().max(128),
  sessions: z.array(SessionId).max(10_000),
  maxMessageBytes: z.number().int().positive(),
  /**
   * Optional extensions the console understands (v1-compatible: older peers ignore the field).
   * `"roots"`: the agent may send `roots` frames.
   */
  features: z.array(z.string().max(50)).max(50).optional(),
});
/** Console → agent: start a process for one of the announced servers. Carries a name only. */
export const OpenFrame = z.strictObject({ type: z.literal("open"), session: SessionId, server: ServerNameSchema });
/** Agent → console: the process is running. */
export const OpenedFrame = z.object({ type: z.literal("opened"), session: SessionId, pid: z.number().int().nullable() });
/** Either way: one JSON-RPC message for a session. */
export const MessageFrame = z.object({ type: z.literal("message"), session: SessionId, message: JsonRpcMessageSchema });
/** Agent → console: a chunk of the process's stderr. */
export const StderrFrame = z.object({ type: z.literal("stderr"), session: SessionId, chunk: z.string().max(65_536) });
/** Agent → console: the process is gone (or never started: `error` says why). */
export const ExitFrame = z.object({
  type: z.literal("exit"),
  session: SessionId,
  code: z.number().int().nullable(),
  signal: z.string().max(20).nullable(),
  /** The last lines of stderr. */
  stderrTail: z.array(z.string().max(4096)).max(50),
  error: z.string().max(2000).optional(),
});
/**
 * Agent → console (only when the welcome listed the `"roots"` feature): the agent answered the
 * server's `roots/list` without these roots, because they do not exist on its machine or are
 * outside the directories its config allows for that server.
 */
export const RootsFrame = z.object({
  type: z.literal("roots"),
  session: SessionId,
  refused: z.array(z.object({ uri: z.string().max(4096), reason: z.string().max(500) })).max(100),
});
/** Console → agent: end the session (the agent shuts the process down per spec). */
export const CloseFrame = z.object({ type: z.literal("close"), session: SessionId });
export const PingFrame = z.object({ type: z.literal("ping"), t: z.number() });
export const PongFrame = z.object({ type: z.literal("pong"), t: z.number() });
/** Either way: something was refused. With a session, it concerns that session only. */
export const ErrorFrame = z.object({
  type: z.literal("error"),
  session: SessionId.optional(),
  code: z.enum(["bad_frame", "too_large", "unknown_server", "unknown_session", "spawn_failed", "bad_version", "internal"]),
  message: z.string().max(2000),
  /** `too_large` from the agent: the JSON-RPC id of the console's request whose answer could not be relayed. */
  request: z.union([z.string().max(65_536), z.number()]).optional(),
});

export const AgentFrameSchema = z.discriminatedUnion("type", [HelloFrame, OpenedFrame, MessageFrame, StderrFrame, ExitFrame, RootsFrame, PingFrame, PongFrame, ErrorFrame]);
export const ConsoleFrameSchema = z.discriminatedUnion("type", [WelcomeFrame, OpenFrame, MessageFrame, CloseFrame, PingFrame, PongFrame, ErrorFrame]);

/** A frame the agent sends. */
export type AgentFrame = z.infer<typeof AgentFrameSchema>;
/** A frame the console sends. */
export type ConsoleFrame = z.infer<typeof ConsoleFrameSchema>;
export type HelloFrame = z.infer<typeof HelloFrame>;
export type ErrorFrame = z.infer<typeof ErrorFrame>;
export type ExitFrame = z.infer<typeof ExitFrame>;
export type RootsFrame = z.infer<typeof RootsFrame>;

/** Result of decoding one incoming WebSocket message. */
type Decoded<F> = { ok: true; frame: F } | { ok: false; error: ErrorFrame };

/** What a WebSocket library hands over for one message. */
type RawData = string | Uint8Array | ArrayBuffer | Uint8Array[];

const utf8 = new TextDecoder();

function toText(data: RawData): { text: string; size: number } {
  if (typeof data === "string") return { text: data, size: byteLength(data) };
  if (Array.isArray(data)) {
    const size = data.reduce((n, part) => n + part.byteLength, 0);
    const joined = new Uint8Array(size);
    let at = 0;
    for (const part of data) {
      joined.set(part, at);
      at += part.byteLength;
    }
    return { text: utf8.decode(joined), size };
  }
  return { text: utf8.decode(data), size: data.byteLength };
}

function decode<F>(schema: z.ZodType<F>, data: RawData, maxBytes: number): Decoded<F> {
  const { text, size } = toText(data);
  if (size > maxBytes + ENVELOPE_ALLOWANCE_BYTES) {
    return { ok: false, error: { type: "error", code: "too_large", message: `Frame of ${size} bytes exceeds the relay cap of ${maxBytes} bytes` } };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: { type: "error", code: "bad_frame", message: "Frame is not valid JSON" } };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, frame: parsed.data };
  const issue = parsed.error.issues[0];
  const session = typeof raw === "object" && raw !== null && typeof (raw as { session?: unknown }).session === "string" ? ((raw as { session: string }).session.slice(0, 128) || undefined) : undefined;
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { ok: false, error: { type: "error", code: "bad_frame", session, message: `Invalid frame: ${where}${issue?.message ?? "unknown"}`.slice(0, 2000) } };
}

/** Decodes and validates a frame received by the console. Never throws. */
export function decodeAgentFrame(data: RawData, maxBytes = DEFAULT_MAX_MESSAGE_BYTES): Decoded<AgentFrame> {
  return decode(AgentFrameSchema as z.ZodType<AgentFrame>, data, maxBytes);
}

/** Decodes and validates a frame received by the agent. Never throws. */
export function decodeConsoleFrame(data: RawData, maxBytes = DEFAULT_MAX_MESSAGE_BYTES): Decoded<ConsoleFrame> {
  return decode(ConsoleFrameSchema as z.ZodType<ConsoleFrame>, data, maxBytes);
}

/**
 * Why a message cannot go through the relay, naming its size and the cap. The size is rounded up
 * and the cap down, so the size never reads as within the cap.
 */
export function tooLargeText(what: string, bytes: number, maxBytes: number): string {
  return `${what} is ${formatBytes(bytes, Math.ceil)}; the relay carries at most ${formatBytes(maxBytes, Math.floor)} per message`;
}

function formatBytes(bytes: number, round: (n: number) => number): string {
  for (const [unit, size] of [["MiB", 1024 * 1024], ["KiB", 1024]] as const) {
    if (bytes >= size) return `${bytes % size === 0 ? bytes / size : round((bytes / size) * 10) / 10} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** UTF-8 size of a string without allocating a buffer. */
export function byteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
