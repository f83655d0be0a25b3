import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { instanceId } from "@/lib/core/instances";
import { SwitchboardError, type ServedElsewhere } from "@/lib/core/errors";
import { instanceUrl } from "./index";

/** Marks a request one instance forwarded to another: it is never forwarded again. */
const FORWARDED_HEADER = "x-switchboard-forwarded-by";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "content-length", "te", "trailer", "proxy-connection"]);

/**
 * Sends the request, as the caller sent it (its cookie or token authenticates it there too), to
 * the instance that holds what it needs, and streams that instance's answer back unchanged.
 * The Host header is kept so that the other instance applies the same origin checks.
 */
export async function forwardRequest(request: { url: string; method: string; headers: Headers; signal: AbortSignal }, body: string | null, elsewhere: ServedElsewhere): Promise<Response> {
  const base = instanceUrl(elsewhere.instanceId);
  if (!base || request.headers.has(FORWARDED_HEADER)) {
    throw new SwitchboardError("unavailable", `${elsewhere.message}, which this instance cannot reach right now; try again`);
  }
  const { pathname, search } = new URL(request.url);
  const target = new URL(pathname + search, base);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  headers[FORWARDED_HEADER] = instanceId();
  if (body !== null) headers["content-length"] = String(Buffer.byteLength(body));

  const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
    // Instances on other hosts may reach each other over TLS (an https SWITCHBOARD_INSTANCE_URL).
    const req = (target.protocol === "https:" ? https : http).request(target, { method: request.method, headers }, resolve);
    req.on("error", reject);
    request.signal.addEventListener("abort", () => req.destroy(new Error("the caller went away")), { once: true });
    req.end(body ?? undefined);
  }).catch((err: Error) => {
    throw new SwitchboardError("unavailable", `${elsewhere.message}, which did not answer (${err.message}); try again`);
  });
  const out = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  const stream = Readable.toWeb(answer) as ReadableStream<Uint8Array>;
  return new Response(answer.statusCode === 204 || answer.statusCode === 304 ? null : stream, { status: answer.statusCode ?? 502, headers: out });
}
