import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import type { NextConfig } from "next";
import { DIRECT_REPLY, DirectRequest, MCP_BODY, ROUTED_AS, type DirectReply } from "./direct";
import { FORWARDED_HEADER } from "./request-target";

// Loaded by server.ts (outside Next's bundles): nothing here may import "server-only".

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = { routeModule: { ensureUserland(): Promise<void>; userland: Record<string, unknown> } };

export interface Route {
  segments: string[];
  /** Its "/api/v1/calls/:id" form, the role matrix's. */
  pattern: string;
  file: string;
  methods?: Promise<Record<string, Handler>>;
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// Bodies up to this size are read whole before the handler runs; larger ones stream to it.
const BUFFERED_BODY_BYTES = 64 * 1024;

/**
 * Scripts' API requests (a bearer token, under /api/v1; and the gateway's /mcp endpoints) answered by the route handlers Next built
 * — the same modules, the same wrapper (lib/api/route.ts) — without Next's request pipeline,
 * which cost more CPU than a whole recorded call (docs/architecture.md, "The call path").
 * Browser requests (cookies) and pages stay with Next. Returns false for a request it leaves to Next.
 */
// The API, and the gateway's MCP endpoints (lib/gateway), which every host calls with a bearer token.
const DIRECT_PREFIXES = ["/api/v1/", "/mcp/"];

export function bearerApiRoutes({ distDir, headers }: { distDir: string; headers: [string, string][] }) {
  const manifest = path.resolve(distDir, "server", "app-paths-manifest.json");
  if (!fs.existsSync(manifest)) return null;
  const load = createRequire(manifest);
  const files = JSON.parse(fs.readFileSync(manifest, "utf8")) as Record<string, string>;
  const routes = routeTable(Object.keys(files), (page) => path.resolve(distDir, "server", files[page]!));

  const handlersOf = (route: Route) =>
    (route.methods ??= (async () => {
      const { routeModule } = load(route.file) as RouteModule;
      await routeModule.ensureUserland();
      return Object.fromEntries(Object.entries(routeModule.userland).filter(([name, value]) => METHODS.has(name) && typeof value === "function")) as Record<string, Handler>;
    })());

  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? "/";
    if (!DIRECT_PREFIXES.some((prefix) => url.startsWith(prefix)) || !METHODS.has(req.method ?? "") || !/^bearer /i.test(req.headers.authorization ?? "")) return false;
    const found = matchRoute(routes, url.split("?")[0]!);
    if (!found) return false;
    void serve(req, res, handlersOf(found.route), found.route.pattern, found.params, headers).catch((err) => {
      console.error("[api] direct route failed", err);
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

async function serve(req: IncomingMessage, res: ServerResponse, handlers: Promise<Record<string, Handler>>, pattern: string, params: Record<string, string>, headers: [string, string][]) {
  const handler = (await handlers)[req.method!];
  if (!handler) {
    res.writeHead(405, { "content-type": "application/json", allow: Object.keys(await handlers).join(", ") });
    res.end(JSON.stringify({ error: { code: "method_not_allowed", message: `${req.method} is not allowed here` } }));
    return;
  }
  // Like Next, a request whose client went away is aborted (event streams stop on it).
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  const request = await toRequest(req, aborted.signal);
  (request as unknown as Record<symbol, string>)[ROUTED_AS] = `${req.method} ${pattern}`;
  const response = await handler(request, { params: Promise.resolve(params) });
  for (const [name, value] of headers) res.setHeader(name, value);
  const direct = (response as unknown as Partial<DirectReply>)[DIRECT_REPLY];
  if (direct) {
    for (const [name, value] of Object.entries(direct.headers ?? {})) res.setHeader(name, value);
    res.writeHead(direct.status, { "content-type": "application/json", "content-length": Buffer.byteLength(direct.json) });
    return void res.end(direct.json);
  }
  response.headers.forEach((value, name) => name !== "set-cookie" && res.setHeader(name, value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  res.writeHead(response.status);
  if (!response.body) return void res.end();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
    if (aborted.signal.aborted) break;
  }
  res.end();
}

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  // server.ts set these from the socket and the request; rawHeaders still hold whatever the client sent.
  headers.set("x-switchboard-client-ip", String(req.headers["x-switchboard-client-ip"] ?? ""));
  headers.set(FORWARDED_HEADER, String(req.headers[FORWARDED_HEADER] ?? ""));
  // server.ts refused any Host and target that would give this URL another path (lib/api/request-target.ts).
  const url = `http://${req.headers.host ?? "localhost"}${req.url}`;
  // The gateway hands its requests to the MCP SDK, which wants a whole Request.
  const lean = req.url!.startsWith("/api/v1/");
  if (req.method === "GET" || req.method === "DELETE" && !req.headers["content-length"] && !req.headers["transfer-encoding"]) {
    return lean ? (new DirectRequest(url, req.method, headers, signal, null) as unknown as Request) : new Request(url, { method: req.method, headers, signal });
  }
  const length = Number(req.headers["content-length"]);
  if (Number.isFinite(length) && length <= BUFFERED_BODY_BYTES) {
    const body = await readAll(req);
    if (lean) return new DirectRequest(url, req.method!, headers, signal, body) as unknown as Request;
    // The gateway parses the body itself and hands it to the SDK as parsedBody: the Request needs no body stream.
    return Object.assign(new Request(url, { method: req.method, headers, signal }), { [MCP_BODY]: body });
  }
  return new Request(url, { method: req.method, headers, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, signal, duplex: "half" } as RequestInit);
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The API's and the gateway's route files among a build's pages ("/api/v1/calls/[id]/route"), in Next's order. */
export function routeTable(pages: string[], fileOf: (page: string) => string = () => ""): Route[] {
  return (
    pages
      // A catch-all's params are arrays in Next; none is under /api/v1, and Next keeps any that comes.
      .filter((page) => DIRECT_PREFIXES.some((prefix) => page.startsWith(prefix)) && page.endsWith("/route") && !page.includes("[..."))
      .map((page) => {
        const segments = page.split("/").slice(1, -1);
        return { segments, pattern: "/" + segments.map((s) => s.replace(/^\[(.+)\]$/, ":$1")).join("/"), file: fileOf(page) };
      })
      .sort((a, b) => precedence(a.segments, b.segments))
  );
}

// Next's order: at the first segment where two routes differ, a static name beats a [param].
function precedence(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = Number(a[i]!.startsWith("[")) - Number(b[i]!.startsWith("["));
    if (d) return d;
  }
  return b.length - a.length;
}

/** The route a path names, as the direct path serves it. */
export function matchRoute(routes: Route[], pathname: string): { route: Route; params: Record<string, string> } | null {
  const parts = pathname.split("/").slice(1);
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; ok && i < parts.length; i++) {
      const segment = route.segments[i]!;
      if (segment.startsWith("[")) ok = (params[segment.slice(1, -1)] = decoded(parts[i]!)) !== "";
      else ok = segment === parts[i];
    }
    if (ok) return { route, params };
  }
  return null;
}

// A malformed escape ("%E0") matches nothing: Next answers it.
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return "";
  }
}
