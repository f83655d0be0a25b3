import { AUTOMATIC_ORIGINS, type CallDto } from "@/lib/domains/calls";

/** The comparison page of two calls; the URL is the comparison. */
export function compareUrl(a: string, b: string): string {
  return `/history/compare?${new URLSearchParams({ a, b })}`;
}

/** History with this call ticked, to tick another to compare: in the call's own view (a monitor's call among the monitors'). */
export function compareWithUrl(call: Pick<CallDto, "id" | "origin">): string {
  return `/history?${new URLSearchParams({ compare: call.id, ...(AUTOMATIC_ORIGINS.includes(call.origin) ? { origin: call.origin } : {}) })}`;
}

/** The server's runner with this call's arguments filled in; the new call records it as its source. */
export function editUrl(call: Pick<CallDto, "id" | "serverId" | "method" | "name">): string {
  const kind = call.method === "prompts/get" ? "prompt" : "tool";
  return `/servers/${encodeURIComponent(call.serverId)}?${new URLSearchParams({ [kind]: call.name, from: call.id })}`;
}
