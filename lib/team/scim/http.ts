import "server-only";
import { z } from "zod";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import { databaseFault } from "@/lib/core/db/client";
import { fromToken } from "@/lib/identity/auth/server";
import { SCIM_CONTENT_TYPE, SCIM_ERROR_SCHEMA } from "./index";

/** A SCIM failure (RFC 7644 §3.12): rendered as `{ schemas, status, scimType?, detail }`. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: "invalidFilter" | "invalidValue" | "invalidPath" | "invalidSyntax" | "uniqueness" | "mutability" | "noTarget" | "tooMany",
  ) {
    super(message);
  }
}

/** What a SCIM handler answers: a body (JSON) with a status, or nothing (204). */
export interface ScimAnswer {
  status?: number;
  body?: unknown;
  location?: string;
}

export interface ScimContext {
  request: Request;
  principal: Principal;
  params: Record<string, string>;
  url: URL;
  /** The request's JSON body, at most MAX_BODY_BYTES (else 413). */
  json(): Promise<unknown>;
}

const MAX_BODY_BYTES = 256 * 1024;

/**
 * A /scim/v2 route handler: authenticates the workspace's SCIM token (no other credential opens
 * SCIM), reads a capped JSON body and renders every answer and failure as SCIM JSON.
 */
export function scimRoute(handle: (ctx: ScimContext) => Promise<ScimAnswer>) {
  return async (request: Request, context?: { params?: Promise<Record<string, string>> }): Promise<Response> => {
    try {
      const principal = await scimPrincipal(request);
      const params = (await context?.params) ?? {};
      const answer = await handle({ request, principal, params, url: new URL(request.url), json: () => readJson(request) });
      return render(answer.status ?? 200, answer.body, answer.location ? { location: answer.location } : {});
    } catch (err) {
      const error = toScimError(err);
      return render(error.status, { schemas: [SCIM_ERROR_SCHEMA], status: String(error.status), ...(error.scimType ? { scimType: error.scimType } : {}), detail: error.message }, error.status === 401 ? { "www-authenticate": 'Bearer realm="scim"' } : {});
    }
  };
}

async function scimPrincipal(request: Request): Promise<Principal> {
  const header = request.headers.get("authorization") ?? "";
  if (!/^bearer /i.test(header)) throw new ScimError(401, "Send the workspace's SCIM token (Authorization: Bearer …)");
  const principal = await fromToken(header.slice(7).trim(), request).catch(() => null);
  if (!principal?.tokenScim) throw new ScimError(401, "Invalid or revoked SCIM token");
  return principal;
}

function render(status: number, body: unknown, headers: Record<string, string>): Response {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { "content-type": SCIM_CONTENT_TYPE, "cache-control": "no-store", ...headers } });
}

// Past the cap a body is read on and dropped up to this size, so a client still sending gets its 413.
const DRAIN_BYTES = 4 * 1024 * 1024;

async function readJson(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length"));
  let over = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) over = true;
      if (over && size > DRAIN_BYTES) {
        await reader.cancel().catch(() => undefined);
        break;
      }
      if (!over) chunks.push(value);
    }
  }
  if (over) throw tooLarge();
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ScimError(400, "The body is not valid JSON", "invalidSyntax");
  }
}

const tooLarge = () => new ScimError(413, `The body is larger than ${MAX_BODY_BYTES} bytes`);

/** Parses with a zod schema; a mismatch is a 400 invalidValue naming the first problem. */
export function parseScim<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  throw new ScimError(400, `${first?.path.length ? `${first.path.join(".")}: ` : ""}${first?.message ?? "Invalid value"}`, "invalidValue");
}

function toScimError(err: unknown): ScimError {
  if (err instanceof ScimError) return err;
  if (err instanceof SwitchboardError) return new ScimError(err.status, err.message);
  const fault = databaseFault(err);
  if (fault) return new ScimError(fault.status, fault.message);
  console.error("[scim] unexpected error", err);
  return new ScimError(500, "Internal error; see the console's log");
}
