import type { IncomingMessage, ServerResponse } from "node:http";
import { declaredBodyCap, FORWARDED_HEADER, FORWARDING_HEADERS, refusedTarget } from "@/lib/api/request-target";

/**
 * The front of every HTTP request, before either pipeline: which route a request names is read
 * here once (lib/api/request-target.ts), bodies outside the API are capped by what they declare,
 * the client's address is taken from the socket, and writes in flight are counted so that a
 * graceful stop can wait for them.
 */
export function requestFront({ trustProxy, pipelines }: { trustProxy: boolean; pipelines: ((req: IncomingMessage, res: ServerResponse) => boolean | void)[] }) {
  // Writes in flight (calls among them) are what a graceful stop waits for; event streams are GETs.
  const writes = new Set<ServerResponse>();
  let draining = false;
  let drained = () => {};

  function request(req: IncomingMessage, res: ServerResponse): void {
    if (draining) return refuse(res, 503, "unavailable", "The console is shutting down", { "retry-after": "5" });
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

  /** Refuses new requests and waits up to `graceMs` for the writes in flight; how many were. */
  async function drain(graceMs: number): Promise<number> {
    draining = true;
    const inFlight = writes.size;
    if (inFlight) await new Promise<void>((resolve) => ((drained = resolve), setTimeout(resolve, graceMs)));
    return inFlight;
  }

  return { request, drain };
}

function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
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
