import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { NextConfig } from "next";
import { matchRoute, routeKeyOf } from "@/lib/core/routes";
import { serveTraced, tracing } from "@/lib/core/telemetry";
import { startTiming } from "@/lib/core/timing";
import type { RouteHandler } from "./route";
import { BufferedRequest, Reply, writeReply, type ApiRequest } from "./reply";
import { FORWARDED_HEADER } from "./request-target";
import { ROUTE_MODULES } from "./route-modules.generated";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// Bodies up to this size are read whole before the handler runs; larger ones stream to it.
const BUFFERED_BODY_BYTES = 64 * 1024;
// The API, the gateway's MCP endpoints and SCIM provisioning. Pages, better-auth (/api/auth) and rewrites stay with Next.
const PREFIXES = ["/api/v1/", "/mcp/", "/scim/"];

type NextStyle = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * The console's own HTTP pipeline for the API and the gateway: the route table generated from
 * app/api and app/mcp (lib/core/routes) picks the route, its module is loaded in this process's module
 * graph, and the handler's Reply is written to the socket. Next's request pipeline cost more CPU
 * than a whole recorded call (docs/architecture.md, "The call path"). Next still serves these
 * routes in development (`npm run dev`) and when SWITCHBOARD_DIRECT_API=0, from the same files.
 * Returns false for a request it leaves to Next.
 */
export function apiPipeline({ headers, modules = ROUTE_MODULES }: { headers: [string, string][]; modules?: Record<string, () => Promise<Record<string, unknown>>> }) {
  const loaded = new Map<string, Promise<Record<string, unknown>>>();
  const moduleOf = (pattern: string) => {
    let found = loaded.get(pattern);
    if (!found) loaded.set(pattern, (found = modules[pattern]?.() ?? Promise.resolve({})));
    return found;
  };

  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const t0 = performance.now();
    const url = req.url ?? "/";
    if (!PREFIXES.some((prefix) => url.startsWith(prefix)) || !METHODS.has(req.method ?? "")) return false;
    const found = matchRoute(url.split("?")[0]!);
    if (!found) return false;
    const run = () => serve(req, res, moduleOf(found.route.pattern), routeKeyOf(req.method!, found.route), found.params, headers, t0);
    void (tracing() ? serveTraced(req, res, found.route.pattern, run) : run()).catch((err) => {
      console.error("[api] request failed", err);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(res.headersSent ? undefined : JSON.stringify({ error: { code: "internal", message: "Internal error; see the console's log" } }));
    });
    return true;
  };
}

/** The response headers next.config.js sets on every path, which Next would have added. */
export async function headersForEveryPath(config: NextConfig): Promise<[string, string][]> {
  const rules = (await config.headers?.()) ?? [];
  return rules.filter((rule) => rule.source === "/:path*").flatMap((rule) => rule.headers.map((h): [string, string] => [h.key, h.value]));
}

async function serve(req: IncomingMessage, res: ServerResponse, module: Promise<Record<string, unknown>>, routedAs: string, params: Record<string, string>, headers: [string, string][], t0: number) {
  const exports = await module;
  const handler = exports[req.method!];
  if (typeof handler !== "function") {
    const allow = [...METHODS].filter((m) => typeof exports[m] === "function").join(", ");
    res.writeHead(405, { "content-type": "application/json", allow });
    return void res.end(JSON.stringify({ error: { code: "method_not_allowed", message: `${req.method} is not allowed here` } }));
  }
  // Like Next, a request whose client went away is aborted (event streams stop on it).
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  for (const [name, value] of headers) res.setHeader(name, value);
  const route = handler as RouteHandler & Partial<Pick<RouteHandler, "serve">>;
  // The request's timing starts when it arrived (its Server-Timing `route` stage counts the body read).
  const reply = route.serve
    ? await route.serve(timed(await toApiRequest(req, aborted.signal), t0), params, routedAs)
    : Reply.from(await (handler as NextStyle)(timed(await toFetchRequest(req, aborted.signal), t0), { params: Promise.resolve(params) }));
  await writeReply(reply, res, aborted.signal);
}

function timed<R extends object>(request: R, t0: number): R {
  startTiming(request, t0);
  return request;
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // The request front (lib/start/front.ts) set these from the socket and the request; rawHeaders still hold whatever the client sent.
  headers.set("x-switchboard-client-ip", String(req.headers["x-switchboard-client-ip"] ?? ""));
  headers.set(FORWARDED_HEADER, String(req.headers[FORWARDED_HEADER] ?? ""));
  return headers;
}

// the request front (lib/start/front.ts) refused any Host and target that would give this URL another path (lib/api/request-target.ts).
const urlOf = (req: IncomingMessage) => `http://${req.headers.host ?? "localhost"}${req.url}`;
const hasBody = (req: IncomingMessage) => !(req.method === "GET" || (req.method === "DELETE" && !req.headers["content-length"] && !req.headers["transfer-encoding"]));
const smallBody = (req: IncomingMessage) => {
  const length = Number(req.headers["content-length"]);
  return Number.isFinite(length) && length <= BUFFERED_BODY_BYTES;
};

async function toApiRequest(req: IncomingMessage, signal: AbortSignal): Promise<ApiRequest> {
  if (!hasBody(req)) return new BufferedRequest(urlOf(req), req.method!, headersOf(req), signal, null);
  if (smallBody(req)) return new BufferedRequest(urlOf(req), req.method!, headersOf(req), signal, await readAll(req));
  return toFetchRequest(req, signal);
}

// The gateway hands its requests to the MCP SDK, which wants a whole Request; a small body read
// already rides along (`bufferedBody`) for lib/gateway to parse without reading the stream.
async function toFetchRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const init = { method: req.method, headers: headersOf(req), signal };
  if (!hasBody(req)) return new Request(urlOf(req), init);
  if (smallBody(req)) {
    const body = await readAll(req);
    return Object.assign(new Request(urlOf(req), { ...init, body: new Uint8Array(body) }), { bufferedBody: body });
  }
  return new Request(urlOf(req), { ...init, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } as RequestInit);
}

// Events, not `for await`: the stream's async iterator cost more than the rest of reading a small body.
function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once("error", reject);
    // After `end` this settles nothing; before it, the client went away mid-body.
    req.once("close", () => reject(new Error("The request ended before its body")));
  });
}
