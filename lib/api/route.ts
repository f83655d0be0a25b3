import "server-only";
import { z } from "zod";
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
 * workspace, and turns every thrown error into the one `{ error: { code, message } }` shape.
 */
export function withWorkspace<P extends Params = Params>(handler: (ctx: HandlerContext<P>) => Promise<unknown>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const principal = await authenticate(request);
      const params = (await context?.params) ?? ({} as P);
      return toResponse(await handler({ request, principal, params }));
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** Like withWorkspace, for the few routes that run before anyone can sign in. */
export function withPublic<P extends Params = Params>(handler: (ctx: { request: Request; params: P }) => Promise<unknown>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      return toResponse(await handler({ request, params: (await context?.params) ?? ({} as P) }));
    } catch (err) {
      return errorResponse(err);
    }
  };
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
