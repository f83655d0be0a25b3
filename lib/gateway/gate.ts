import type { GatewayPrincipal } from "./auth";
import { limit } from "./limit";
import { recordedMethod, RPC, type RpcError } from "./policy";
import type { GatewayRoute } from "./routes";

// The one place both paths (relay/, bridge/) ask what a host may do and what it is offered.

/** A listed tool, prompt or resource as far as the exposure looks at it. */
export interface Listed {
  name?: unknown;
  annotations?: { readOnlyHint?: unknown } | null;
}

type ListKind = "tools" | "prompts" | "resources" | "resource-templates";

/** What the exposure filters: the tool allow-list and read-only. */
export type Exposure = Pick<GatewayRoute, "tools" | "readOnly">;

/** Whether the exposure offers one listed item: a tool on the allow-list (when there is one) and read-only when it must be; everything else as listed. */
export function offers(exposure: Exposure, kind: ListKind, item: Listed): boolean {
  if (kind !== "tools" || !filters(exposure)) return true;
  if (typeof item.name !== "string") return false;
  if (exposure.tools && !exposure.tools.includes(item.name)) return false;
  return !exposure.readOnly || item.annotations?.readOnlyHint === true;
}

/** Whether the exposure leaves some tool out (else a relayed tools/call needs no look at the list). */
function filters(exposure: Exposure): boolean {
  return exposure.readOnly || exposure.tools !== null;
}

const LISTS: Record<string, { kind: ListKind; field: string }> = {
  "tools/list": { kind: "tools", field: "tools" },
  "prompts/list": { kind: "prompts", field: "prompts" },
  "resources/list": { kind: "resources", field: "resources" },
  "resources/templates/list": { kind: "resource-templates", field: "resourceTemplates" },
};

/** A list result (one page) as the host is offered it; other results unchanged. */
export function shapeList(exposure: Exposure, method: string, result: Record<string, unknown>): Record<string, unknown> {
  const list = LISTS[method];
  const items = list && result[list.field];
  if (!list || !Array.isArray(items)) return result;
  const kept = (items as Listed[]).filter((item) => offers(exposure, list.kind, item));
  return kept.length === items.length ? result : { ...result, [list.field]: kept };
}

/** The role rule: a viewer (or a read-only token) lists and reads but calls no tool. */
export function refuseRole(who: Pick<GatewayPrincipal, "role">, method: string): RpcError | null {
  return method === "tools/call" && who.role === "viewer" ? { code: RPC.forbidden, message: "Viewers cannot call tools, through the gateway either" } : null;
}

/** What a name designates among what a server lists, and the route of that server. */
interface Found {
  item: Listed;
  route: GatewayRoute;
}

export interface Lookup {
  /** The item `name` designates, or undefined when nothing listed has that name. */
  find(): Promise<Found | undefined>;
  /**
   * True: a name nothing lists is refused (the bridge routes by name). False: looked up only when
   * the exposure filters tools; otherwise the server answers for its own names (the relay).
   */
  required: boolean;
}

const NOUN: Record<string, string> = { "tools/call": "Tool", "prompts/get": "Prompt" };

/**
 * Whether this host may do `method` on `name` at `route` (null on the aggregated endpoint until
 * the lookup names the server): null, or the JSON-RPC error it is answered with. In order: the
 * role, the name (offered by the exposure, when there is a lookup), the rate limit. Only the
 * recorded methods (tools/call, resources/read, prompts/get) are checked: lists and the rest pass.
 */
export async function admit(principal: GatewayPrincipal, route: GatewayRoute | null, method: string, name: string, lookup?: Lookup): Promise<RpcError | null> {
  if (!recordedMethod(method)) return null;
  const role = refuseRole(principal, method);
  if (role) return role;
  let at = route;
  const noun = NOUN[method];
  if (lookup && noun && (lookup.required || (route !== null && method === "tools/call" && filters(route)))) {
    const found = await lookup.find();
    const kind: ListKind = method === "tools/call" ? "tools" : "prompts";
    if (!found || !offers(found.route, kind, found.item)) return { code: RPC.invalidParams, message: `${noun} ${name} is not offered through this gateway` };
    at = found.route;
  }
  if (!at) return { code: RPC.invalidParams, message: `${noun ?? "Resource"} ${name} is not offered through this gateway` };
  return limit(at, principal);
}
