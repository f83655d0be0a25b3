import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { declaredBodyCap, FORWARDED_HEADER, FORWARDING_HEADERS, refusedTarget } from "@/lib/api/request-target";

// The methods some route or page serves; any other (TRACE, TRACK, PROPFIND, …) is answered here.
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Who serves an upgrade (the agent relay; Next's HMR in development). */
export interface UpgradeRoute {
  handles(req: IncomingMessage): boolean;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * The front of every HTTP request, before either pipeline: which route a request names is read
 * here once (lib/api/request-target.ts), bodies outside the API are capped by what they declare,
 * the client's address is taken from the socket, and writes in flight are counted so that a
 * graceful stop can wait for them. Upgrades (and CONNECT) come here too: see `upgrade`.
 */
export function requestFront({ trustProxy, pipelines, upgrades, handshakeMs }: { trustProxy: boolean; pipelines: ((req: IncomingMessage, res: ServerResponse) => boolean | void)[]; upgrades: UpgradeRoute[]; handshakeMs: number }) {
  // Writes in flight (calls among them) are what a graceful stop waits for; event streams are GETs.
  const writes = new Set<ServerResponse>();
  let draining = false;
  let drained = () => {};

  function request(req: IncomingMessage, res: ServerResponse): void {
    if (draining) return refuse(res, 503, "unavailable", "The console is shutting down", { "retry-after": "5" });
    // Next answered TRACE with a 500 (the fetch Request it builds refuses that method).
    if (!METHODS.includes(req.method!)) return refuse(res, 405, "method_not_allowed", `${req.method} is not allowed here`, { allow: METHODS.join(", ") });
    const refused = refusedTarget(req.url, req.headers, trustProxy);
    if (refused) return refuse(res, 400, "bad_request", refused);
    const cap = declaredBodyCap(req.url!.split("?")[0]!);
    if (cap !== null && req.headers["transfer-encoding"]) return refuseBody(req, res, 411, "A request body here must declare its Content-Length");
    if (cap !== null && Number(req.headers["content-length"] ?? 0) > cap) return refuseBody(req, res, 413, `Request body is larger than ${cap} bytes`);
    // The audit log's "from where": the socket's address, never a value the client sent.
    req.headers["x-switchboard-client-ip"] = req.socket.remoteAddress ?? "";
    req.headers[FORWARDED_HEADER] = FORWARDING_HEADERS.filter((name) => req.headers[name] !== undefined).join(",");
    if (req.method !== "GET" && req.method !== "HEAD") {
      writes.add(res);
      res.once("close", () => {
        writes.delete(res);
        if (!writes.size) drained();
      });
    }
    for (const pipeline of pipelines) if (pipeline(req, res) !== false) return;
  }

  /**
   * An upgrade request, or a CONNECT, whose socket Node hands over with no deadline and no error
   * listener: one nobody serves is answered and closed (Next's upgrade handler leaves it open
   * forever in production, and a few thousand such requests used up the file descriptors). Every
   * socket gets `handshakeMs` of silence before it is cut; ws lifts the deadline once its
   * handshake is done (the relay's, Next's HMR).
   */
  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => undefined);
    (socket as Socket).setTimeout(handshakeMs, () => socket.destroy());
    if (draining) return answerAndClose(socket, 503, "unavailable", "The console is shutting down");
    if (req.method !== "GET") return answerAndClose(socket, 405, "method_not_allowed", `${req.method} is not allowed here`);
    const route = upgrades.find((candidate) => candidate.handles(req));
    if (!route) return answerAndClose(socket, 400, "bad_request", `Nothing here accepts an upgrade to ${JSON.stringify(req.headers.upgrade ?? "")}`);
    route.upgrade(req, socket, head);
  }

  /** Refuses new requests and waits up to `graceMs` for the writes in flight; how many were. */
  async function drain(graceMs: number): Promise<number> {
    draining = true;
    const inFlight = writes.size;
    if (inFlight) await new Promise<void>((resolve) => ((drained = resolve), setTimeout(resolve, graceMs)));
    return inFlight;
  }

  return { request, upgrade, drain };
}

// What Node's parser refuses, as Node answers it (an unknown method is 400 there).
const PARSE_ERRORS: Record<string, number> = { HPE_INVALID_METHOD: 405, HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 };

/**
 * A request Node's parser refused (an unknown method such as TRACK, a malformed or overlong head,
 * a head not sent within the deadline): answered in the error shape, as Node would answer it
 * otherwise, unless the connection already carried an answer.
 */
export function clientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const status = PARSE_ERRORS[err.code ?? ""] ?? 400;
  if (!socket.writable || (socket as Socket).bytesWritten > 0) return void socket.destroy();
  answerAndClose(socket, status, status === 405 ? "method_not_allowed" : status === 413 ? "payload_too_large" : "bad_request", status === 405 ? "This method is not allowed here" : `The request was refused: ${STATUS_CODES[status]}`);
}

/** A plain HTTP answer on a socket no HTTP response owns, which is then closed whether or not the client reads it. */
function answerAndClose(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const allow = status === 405 ? `allow: ${METHODS.join(", ")}\r\n` : "";
  socket.resume();
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${allow}connection: close\r\n\r\n${body}`, () => socket.destroy());
}

function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), connection: "close", ...headers });
  res.end(body);
}

// Past this much of a refused body the connection is cut.
const DISCARD_BYTES = 32 * 1024 * 1024;

/**
 * Answered before any of the body is read. What the client goes on sending is read and dropped
 * (Node does that for an unread body), not kept, so it gets its answer instead of a reset
 * connection; a client still sending past DISCARD_BYTES is cut off.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: 411 | 413, message: string): void {
  let discarded = 0;
  req.on("data", (chunk: Buffer) => (discarded += chunk.length) > DISCARD_BYTES && req.socket.destroy());
  const body = JSON.stringify({ error: { code: status === 413 ? "payload_too_large" : "bad_request", message } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}
