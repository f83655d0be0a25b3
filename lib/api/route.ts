import "server-only";
import { z } from "zod";
import { config } from "@/lib/core/config";
import { accessFor, gateRefusal, type Access } from "@/lib/core/access";
import { databaseFault } from "@/lib/core/db/client";
import { ServedElsewhere, SwitchboardError } from "@/lib/core/errors";
import { forwardRequest } from "@/lib/core/cluster/server";
import { authenticate } from "@/lib/identity/auth/server";
import { requestOrigin } from "@/lib/identity/auth";
import { DEFAULT_MAX_MESSAGE_BYTES } from "@/lib/relay/protocol";
import { readBodyText } from "./body";
import { Reply, ROUTE_HEADER, toResponse, type ApiRequest } from "./reply";
import { SERVER_TIMING_HEADER, timingOf, type Timing } from "@/lib/core/timing";
import type { Principal } from "@/lib/core/access";

export { Reply };
export type { ApiRequest };

type Params = Record<string, string>;
type RouteContext<P extends Params> = { params: Promise<P> };

interface HandlerContext<P extends Params> {
  request: ApiRequest;
  principal: Principal;
  params: P;
}

/**
 * A route handler as both pipelines call it: Next calls the function with its Request; the
 * direct pipeline (lib/api/pipeline.ts) calls `serve` with the route it matched and renders the
 * Reply itself.
 */
export type RouteHandler<P extends Params = Params> = ((request: Request, context: RouteContext<P>) => Promise<Response>) & {
  serve(request: ApiRequest, params: P, routedAs: string): Promise<Reply>;
};

function routeHandler<P extends Params>(answer: (request: ApiRequest, params: Promise<P> | P, routedAs?: string) => Promise<Reply>): RouteHandler<P> {
  const next = async (request: Request, context: RouteContext<P>) => toResponse(await answer(request, context.params));
  return Object.assign(next, { serve: (request: ApiRequest, params: P, routedAs: string) => answer(request, params, routedAs) });
}

/**
 * Wraps a route handler: authenticates (session cookie or bearer token), scopes to the caller's
 * workspace, checks the caller's role against the role matrix (lib/core/access/matrix.ts), and turns
 * every thrown error into the one `{ error: { code, message } }` shape.
 */
export function withWorkspace<P extends Params = Params>(handler: (ctx: HandlerContext<P>) => Promise<unknown>): RouteHandler<P> {
  return routeHandler<P>(async (request, params, routedAs) => {
    const timing = timingOf(request);
    let judged: string | undefined;
    let at = timing.since("route", timing.startedAt);
    try {
      const { key, access } = routeAccess(request, routedAs);
      const principal = await authenticate(request);
      if (principal.via === "session") refuseCrossSite(request, { requireOrigin: true });
      const refusal = gateRefusal({ key, access, principal, method: request.method });
      if (refusal) throw refusal;
      judged = key;
      at = timing.since("auth", at);
      const result = await handler({ request, principal, params: await pathParams(params) });
      return finish(toReply(result), judged, timing);
    } catch (err) {
      if (err instanceof ServedElsewhere) return forwardRequest(request, bodies.get(request) ?? null, err).then(Reply.from, errorReply).then((reply) => forwarded(reply, timing));
      if (judged === undefined) timing.since("auth", at);
      return finish(errorReply(err), judged, timing);
    }
  });
}

// The body each request was parsed from, kept to forward the request to another instance.
const bodies = new WeakMap<ApiRequest, string>();

/**
 * Like withWorkspace, for the few routes the matrix marks "public": they run before anyone can
 * sign in, or authenticate by a credential of their own (pairing code, agent token, share token).
 */
export function withPublic<P extends Params = Params>(handler: (ctx: { request: ApiRequest; params: P }) => Promise<unknown>): RouteHandler<P> {
  return routeHandler<P>(async (request, params, routedAs) => {
    const timing = timingOf(request);
    let judged: string | undefined;
    let at = timing.since("route", timing.startedAt);
    try {
      const { key, access } = routeAccess(request, routedAs);
      if (access !== "public") throw new SwitchboardError("forbidden", "This route is not public");
      refuseCrossSite(request, { requireOrigin: request.headers.has("cookie") });
      judged = key;
      at = timing.since("auth", at);
      const result = await handler({ request, params: await pathParams(params) });
      return finish(toReply(result), judged, timing);
    } catch (err) {
      if (judged === undefined) timing.since("auth", at);
      return finish(errorReply(err), judged, timing);
    }
  });
}

// No id holds a NUL character, and PostgreSQL cannot even compare text with one.
async function pathParams<P extends Params>(params: Promise<P> | P | undefined): Promise<P> {
  const values = (await params) ?? ({} as P);
  for (const value of Object.values(values)) {
    if (typeof value === "string" && value.includes("\0")) throw new SwitchboardError("bad_request", "A path segment holds a NUL character");
  }
  return values;
}

// Fail closed: a route missing from the matrix answers 403 to everyone (and a test names it).
function routeAccess(request: ApiRequest, routedAs: string | undefined): { key: string; access: Access } {
  const { pathname } = new URL(request.url);
  const entry = accessFor(request.method, pathname);
  if (!entry) {
    console.error(`[api] ${request.method} ${pathname} is not in the role matrix (lib/core/access/matrix.ts)`);
    throw new SwitchboardError("forbidden", "This route is not in the role matrix");
  }
  // The direct pipeline says which route it chose: the gate must have judged that one.
  if (routedAs !== undefined && routedAs !== entry.key) {
    console.error(`[api] ${request.method} ${pathname} was routed to ${routedAs} but judged as ${entry.key}`);
    throw new SwitchboardError("forbidden", "This request names its route ambiguously");
  }
  return entry;
}

/**
 * The answer as sent: its JSON rendered (the `render` stage) and its `Server-Timing` set. Every
 * answer of a request that passed the gate names the matrix entry it was judged by, so a
 * test (tests/integration/route-identity.test.ts) can check from outside that the gate judged the route
 * the request line names, whichever pipeline served it.
 */
function finish(reply: Reply, key: string | undefined, timing: Timing): Reply {
  const from = performance.now();
  reply.render();
  timing.since("render", from);
  const header = timing.header();
  return key ? reply.withHeaders({ [ROUTE_HEADER]: key, [SERVER_TIMING_HEADER]: header }) : reply.withHeaders({ [SERVER_TIMING_HEADER]: header });
}

// Another instance answered: its own Server-Timing (when it sent one) says where the call's time went.
function forwarded(reply: Reply, timing: Timing): Reply {
  return reply.headers[SERVER_TIMING_HEADER] ? reply : reply.withHeaders({ [SERVER_TIMING_HEADER]: timing.header() });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF: a cookie rides along with any request a browser makes, and SameSite=Lax does not stop a
 * page on another port of the same host. A cookie-authenticated write must say it comes from
 * this origin (`Origin`, which browsers send on every non-GET request, or `Sec-Fetch-Site`);
 * any write naming another origin is refused, cookie or not (a hostile page posting set-up).
 * Bearer tokens are never sent by a browser on its own, and scripts send no Origin.
 */
function refuseCrossSite(request: ApiRequest, { requireOrigin }: { requireOrigin: boolean }): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin) {
    if (trustedOrigins(request).has(origin)) return;
    throw new SwitchboardError("forbidden", `Cross-site request refused: origin ${origin} is not this console's`);
  }
  if (!requireOrigin || request.headers.get("sec-fetch-site") === "same-origin") return;
  throw new SwitchboardError("forbidden", "Cross-site request refused: a signed-in write must carry an Origin header");
}

function trustedOrigins(request: ApiRequest): Set<string> {
  const { url, trustedOrigins } = config();
  return new Set([requestOrigin(request), ...(url ? [new URL(url).origin] : []), ...trustedOrigins]);
}

function toReply(result: unknown): Reply {
  if (result instanceof Reply) return result;
  if (result instanceof Response) return Reply.from(result);
  if (result === undefined) return new Reply(undefined, 204);
  return new Reply(result);
}

/** The one error shape, as a Reply. */
function errorReply(err: unknown): Reply {
  const error = toSwitchboardError(err);
  const retryAfter = (error.details as { retryAfter?: unknown } | undefined)?.retryAfter;
  return new Reply(error.toBody(), error.status, typeof retryAfter === "number" ? { "retry-after": String(retryAfter) } : {});
}

/** The one error shape, as a Response (routes outside the wrapper: better-auth's, OAuth metadata). */
export function errorResponse(err: unknown): Response {
  return toResponse(errorReply(err));
}

function toSwitchboardError(err: unknown): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  const fault = databaseFault(err);
  if (fault) return fault;
  if (err instanceof z.ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    return new SwitchboardError("bad_request", `${where}${first?.message ?? "Invalid input"}`, { issues: err.issues });
  }
  console.error("[api] unexpected error", err);
  return new SwitchboardError("internal", "Internal error; see the console's log");
}

/** Every API body is capped; the call endpoints may raise theirs (SWITCHBOARD_MAX_CALL_BODY_BYTES). */
const MAX_BODY_BYTES = 1024 * 1024;

/** The cap for bodies that carry MCP arguments or answers: configurable up to the relay's frame cap. */
export function callBodyLimit(): number {
  return Math.min(config().maxCallBodyBytes, DEFAULT_MAX_MESSAGE_BYTES);
}

/**
 * Parses a JSON body with a zod schema; a missing or malformed body is a 400, a body over
 * `maxBytes` a 413 (nothing past the cap is kept in memory, whatever Content-Length claims).
 */
export async function parseBody<S extends z.ZodType>(request: ApiRequest, schema: S, options: { maxBytes?: number } = {}): Promise<z.infer<S>> {
  const from = performance.now();
  try {
    return await parsedBody(request, schema, options);
  } finally {
    timingOf(request).since("validation", from);
  }
}

async function parsedBody<S extends z.ZodType>(request: ApiRequest, schema: S, { maxBytes = MAX_BODY_BYTES }: { maxBytes?: number }): Promise<z.infer<S>> {
  const text = await readBodyText(request, maxBytes);
  bodies.set(request, text);
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new SwitchboardError("bad_request", "Request body is not valid JSON");
  }
  if (LONE_SURROGATE_ESCAPE.test(text) && !wellFormed(raw)) {
    throw new SwitchboardError("bad_request", "Request body holds a lone UTF-16 surrogate (\\ud800–\\udfff): not valid Unicode text");
  }
  return schema.parse(raw);
}

// JSON may escape half of a surrogate pair; such a string cannot be stored or sent as UTF-8.
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

function wellFormed(value: unknown): boolean {
  if (typeof value === "string") return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value && typeof value === "object") return Object.entries(value).every(([k, v]) => k.isWellFormed() && wellFormed(v));
  return true;
}

export function parseQuery<S extends z.ZodType>(request: ApiRequest, schema: S): z.infer<S> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) if (value !== "") raw[key] = value;
  return schema.parse(raw);
}
