import { roleAtLeast } from "@/lib/core/access";
import { validateArguments, type FieldError } from "@/lib/core/json-schema";
import { offeredItems } from "@/lib/domains/calls/server";
import type { PolicyKind } from "@/lib/domains/policies";
import { decide } from "@/lib/domains/policies/server";
import type { GatewayPrincipal } from "./auth";
import { limit } from "./limit";
import { gatewaySubject, policyRefusal, recordedMethod, RPC, type Admission, type RpcError } from "./policy";
import type { GatewayRoute } from "./routes";

// The one place both paths (relay/, bridge/) ask what a host may do and what it is offered.

/** A listed tool, prompt or resource as far as the exposure looks at it. */
export interface Listed {
  name?: unknown;
  annotations?: { readOnlyHint?: unknown } | null;
  /** A tool's: what its arguments are checked against. */
  inputSchema?: unknown;
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

const GOVERNED: Record<string, PolicyKind> = { "tools/list": "tool", "prompts/list": "prompt", "resources/list": "resource" };

/**
 * A list result (one page) as this host is offered it: the exposure's filter (shapeList), then the
 * workspace's rules: what the host may not call is left out, what needs approval says so.
 */
export async function offerList(principal: GatewayPrincipal, exposure: Exposure & Pick<GatewayRoute, "serverId">, method: string, result: Record<string, unknown>): Promise<Record<string, unknown>> {
  const shaped = shapeList(exposure, method, result);
  const list = LISTS[method];
  const kind = GOVERNED[method];
  const items = list && shaped[list.field];
  if (!kind || !Array.isArray(items)) return shaped;
  const offered = await offeredItems(gatewaySubject(principal), exposure.serverId, kind, items);
  return offered === items ? shaped : { ...shaped, [list.field]: offered };
}

/** One server's tools, prompts or resources as the rules offer them to this host (the bridge's lists). */
export function offeredFor<T>(principal: GatewayPrincipal, serverId: string, kind: "tools" | "prompts" | "resources", items: T[]): Promise<T[]> {
  return offeredItems(gatewaySubject(principal), serverId, kind === "tools" ? "tool" : kind === "prompts" ? "prompt" : "resource", items);
}

/** The role rule: a viewer or an auditor (or a read-only token) lists and reads but calls no tool. */
export function refuseRole(who: Pick<GatewayPrincipal, "role">, method: string): RpcError | null {
  if (method !== "tools/call" || roleAtLeast(who.role, "member")) return null;
  return { code: RPC.forbidden, message: `${who.role === "auditor" ? "Auditors" : "Viewers"} cannot call tools, through the gateway either` };
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
   * True: a name nothing lists is refused (the bridge routes by name). False (the relay): only
   * tools are looked up (for their arguments' schema), and a name nothing lists is refused only
   * when the exposure filters tools; otherwise the server answers for its own names.
   */
  required: boolean;
}

const NOUN: Record<string, string> = { "tools/call": "Tool", "prompts/get": "Prompt" };
const KIND: Record<string, PolicyKind> = { "tools/call": "tool", "prompts/get": "prompt", "resources/read": "resource" };

/**
 * Whether this host may do `method` on `name` at `route` (null on the aggregated endpoint until
 * the lookup names the server): null, the JSON-RPC error it is answered with, or `{ hold }` when
 * a person must approve it first. In order: the role, the name (offered by the exposure, when
 * there is a lookup), a tool's arguments (against its inputSchema, with the API's validator), the
 * workspace's rules (lib/domains/policies: a refusal carries the decision, for history), the rate
 * limit. Only the recorded methods (tools/call, resources/read, prompts/get) are checked: lists
 * and the rest pass.
 */
export async function admit(principal: GatewayPrincipal, route: GatewayRoute | null, method: string, name: string, lookup?: Lookup, args?: unknown): Promise<Admission> {
  if (!recordedMethod(method)) return null;
  const role = refuseRole(principal, method);
  if (role) return role;
  let at = route;
  // What the rules match: the server's own name for it (the aggregated endpoint's host sees it prefixed).
  let target = name;
  const noun = NOUN[method];
  // A tool's arguments are checked against its listed schema: a tools/call always looks it up.
  if (lookup && noun && (lookup.required || method === "tools/call")) {
    const found = await lookup.find();
    const kind: ListKind = method === "tools/call" ? "tools" : "prompts";
    const named = found ?? null;
    if (named ? !offers(named.route, kind, named.item) : lookup.required || (route !== null && kind === "tools" && filters(route))) {
      return { code: RPC.invalidParams, message: `${noun} ${name} is not offered through this gateway` };
    }
    if (named) {
      at = named.route;
      if (typeof named.item.name === "string") target = named.item.name;
      const invalid = kind === "tools" ? refuseArguments(named.item, args) : null;
      if (invalid) return invalid;
    }
  }
  if (!at) return { code: RPC.invalidParams, message: `${noun ?? "Resource"} ${name} is not offered through this gateway` };
  const decision = await decide({ subject: gatewaySubject(principal), serverId: at.serverId, kind: KIND[method]!, name: target, arguments: method === "resources/read" ? { uri: name } : (args ?? {}) });
  if (decision.effect === "deny") return policyRefusal(decision);
  const limited = await limit(at, principal);
  return limited ?? (decision.effect === "approve" ? { hold: decision } : null);
}

/** Arguments that do not match the tool's inputSchema (lib/core/json-schema, as the API checks them): -32602 naming each path, the problems in `data.errors`. */
export function refuseArguments(tool: Listed, args: unknown): RpcError | null {
  const errors: FieldError[] = validateArguments(tool.inputSchema, args ?? {});
  if (!errors.length) return null;
  const problems = errors.map((e) => `${e.path === "/" ? "arguments" : `arguments${e.path}`}: ${e.message}`).join("; ");
  return { code: RPC.invalidParams, message: `Arguments do not match the tool's input schema: ${problems}`, data: { errors } };
}
