import "server-only";
import { z } from "zod";
import { accessFor, roleAtLeast, type Access } from "@/lib/access";
import { SwitchboardError } from "@/lib/errors";
import { authenticate } from "@/lib/auth/server";
import type { Principal } from "@/lib/auth";

type Params = Record<string, string>;
type RouteContext<P extends Params> = { params: Promise<P> };

export interface HandlerContext<P extends Params> {
  request: Request;
  principal: Principal;
  params: P;
}

/** A JSON response with a status other than 200. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly status: number,
  ) {}
}

/**
 * Wraps a route handler: authenticates (session cookie or bearer token), scopes to the caller's
 * workspace, checks the caller's role against the role matrix (lib/access/matrix.ts), and turns
 * every thrown error into the one `{ error: { code, message } }` shape.
 */
export function withWorkspace<P extends Params = Params>(handler: (ctx: HandlerContext<P>) => Promise<unknown>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const access = routeAccess(request);
      const principal = await authenticate(request);
      if (access === "public" || !roleAtLeast(principal.role, access)) {
        throw new SwitchboardError("forbidden", forbiddenMessage(access, principal.role, principal.tokenScope), { requiredRole: access, role: principal.role });
      }
      const params = (await context?.params) ?? ({} as P);
      return toResponse(await handler({ request, principal, params }));
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/**
 * Like withWorkspace, for the few routes the matrix marks "public": they run before anyone can
 * sign in, or authenticate by a credential of their own (pairing code, agent token, share token).
 */
export function withPublic<P extends Params = Params>(handler: (ctx: { request: Request; params: P }) => Promise<unknown>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      if (routeAccess(request) !== "public") throw new SwitchboardError("forbidden", "This route is not public");
      return toResponse(await handler({ request, params: (await context?.params) ?? ({} as P) }));
    } catch (err) {
      return errorResponse(err);
    }
  };
}

// Fail closed: a route missing from the matrix answers 403 to everyone (and a test names it).
function routeAccess(request: Request): Access {
  const { pathname } = new URL(request.url);
  const entry = accessFor(request.method, pathname);
  if (!entry) {
    console.error(`[api] ${request.method} ${pathname} is not in the role matrix (lib/access/matrix.ts)`);
    throw new SwitchboardError("forbidden", "This route is not in the role matrix");
  }
  return entry.access;
}

function forbiddenMessage(access: Access, role: string, scope?: string): string {
  if (scope === "read" && access !== "viewer") return "This API token is read-only";
  return `This needs the ${access} role or higher; you are ${role === "admin" || role === "owner" ? "an" : "a"} ${role}`;
}

function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result instanceof Reply) return Response.json(result.body, { status: result.status });
  if (result === undefined) return new Response(null, { status: 204 });
  return Response.json(result);
}

export function errorResponse(err: unknown): Response {
  const error = toSwitchboardError(err);
  return Response.json(error.toBody(), { status: error.status });
}

function toSwitchboardError(err: unknown): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  if (err instanceof z.ZodError) {
    const first = err.issues[0];
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    return new SwitchboardError("bad_request", `${where}${first?.message ?? "Invalid input"}`, { issues: err.issues });
  }
  console.error("[api] unexpected error", err);
  return new SwitchboardError("internal", "Internal error; see the console's log");
}

/** Parses a JSON body with a zod schema; a missing or malformed body is a 400. */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    const text = await request.text();
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new SwitchboardError("bad_request", "Request body is not valid JSON");
  }
  return schema.parse(raw);
}

export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.infer<S> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) if (value !== "") raw[key] = value;
  return schema.parse(raw);
}
