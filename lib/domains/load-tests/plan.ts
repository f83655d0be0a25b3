import "server-only";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import { getCollection } from "@/lib/domains/collections/server";
import { fillVariables, stepLabel, type Step } from "@/lib/domains/collections";
import type { PolicyDecision } from "@/lib/domains/policies";
import { decide } from "@/lib/domains/policies/server";
import { apiSubject } from "@/lib/domains/calls/server";
import { getServerForCall, type ServerSecretRow } from "@/lib/domains/servers/server";
import { refuseElsewhere } from "@/lib/domains/sessions/server";
import type { CreateLoadTest } from "./schemas";

const LISTS = { "tools/list": "tools", "resources/list": "resources", "resources/templates/list": "resource-templates", "prompts/list": "prompts" } as const;
type ListMethod = keyof typeof LISTS;
const KIND = { "tools/call": "tool", "prompts/get": "prompt", "resources/read": "resource" } as const;
type SentMethod = keyof typeof KIND;

/** One step of a load test, resolved: its server, what it sends, and the rules' decision on it. */
export interface PlannedStep {
  index: number;
  label: string;
  server: ServerSecretRow;
  method: SentMethod | ListMethod;
  /** Tool or prompt name, or the resource's URI (history's `name`). */
  name: string;
  params: Record<string, unknown>;
  /** The rules' decision, judged once per distinct call of the test (null for a list: lists are filtered, not refused). */
  decision: PolicyDecision | null;
}

export interface Plan {
  label: string;
  collectionId: string | null;
  serverId: string | null;
  steps: PlannedStep[];
}

export function listKind(method: PlannedStep["method"]): (typeof LISTS)[ListMethod] | null {
  return method in LISTS ? LISTS[method as ListMethod] : null;
}

/** Variables filled into every string of a step's arguments (a collection's own variables only). */
function fill(value: unknown, values: Record<string, unknown>): unknown {
  if (typeof value === "string") return fillVariables(value, values);
  if (Array.isArray(value)) return value.map((v) => fill(v, values));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]));
  return value;
}

/**
 * What a load test will send, step by step: each server looked up in the caller's workspace (404
 * otherwise; an agent server held by another instance sends the whole request there), and the
 * rules asked once for each distinct call.
 */
export async function planLoadTest(principal: Principal, input: CreateLoadTest): Promise<Plan> {
  const decisions = new Map<string, Promise<PolicyDecision>>();
  const judged = (server: ServerSecretRow, method: SentMethod, name: string, args: unknown) => {
    const key = JSON.stringify([server.id, method, name, args]);
    let decision = decisions.get(key);
    if (!decision) decisions.set(key, (decision = decide({ subject: apiSubject(principal), serverId: server.id, kind: KIND[method], name, arguments: args })));
    return decision;
  };
  const servers = new Map<string, ServerSecretRow>();
  const serverOf = async (id: string) => {
    let server = servers.get(id);
    if (!server) {
      server = await getServerForCall(principal, id);
      refuseElsewhere(server);
      servers.set(id, server);
    }
    return server;
  };
  if (input.call) {
    const server = await serverOf(input.call.serverId);
    const args = input.call.arguments;
    const step: PlannedStep = { index: 0, label: input.call.tool, server, method: "tools/call", name: input.call.tool, params: { name: input.call.tool, arguments: args }, decision: await judged(server, "tools/call", input.call.tool, args) };
    return { label: `${server.name} · ${input.call.tool}`, collectionId: null, serverId: server.id, steps: [step] };
  }
  const collection = await getCollection(principal, input.collectionId!);
  if (!collection.steps.length) throw new SwitchboardError("unprocessable", "collectionId: the collection has no steps");
  const steps: PlannedStep[] = [];
  for (const [index, step] of collection.steps.entries()) steps.push(await planStep(index, step, collection.variables, serverOf, judged));
  const serverIds = new Set(steps.map((s) => s.server.id));
  return { label: collection.name, collectionId: collection.id, serverId: serverIds.size === 1 ? steps[0]!.server.id : null, steps };
}

async function planStep(
  index: number,
  step: Step,
  variables: Record<string, unknown>,
  serverOf: (id: string) => Promise<ServerSecretRow>,
  judged: (server: ServerSecretRow, method: SentMethod, name: string, args: unknown) => Promise<PolicyDecision>,
): Promise<PlannedStep> {
  const serverId = fillVariables(step.serverId, variables);
  if (serverId.includes("{{")) throw new SwitchboardError("unprocessable", `collectionId: step ${index + 1} names its server by an environment's alias (${step.serverId}); a load test runs without an environment`);
  const server = await serverOf(serverId);
  const label = fillVariables(stepLabel(step), variables);
  if (step.method in LISTS) return { index, label, server, method: step.method as ListMethod, name: step.method, params: {}, decision: null };
  const method = step.method as SentMethod;
  if (method === "resources/read") {
    const uri = fillVariables(step.uri ?? "", variables);
    return { index, label, server, method, name: uri, params: { uri }, decision: await judged(server, method, uri, { uri }) };
  }
  const name = fillVariables(step.name ?? "", variables);
  const args = fill(step.arguments ?? {}, variables) as Record<string, unknown>;
  return { index, label, server, method, name, params: { name, arguments: args }, decision: await judged(server, method, name, args) };
}
