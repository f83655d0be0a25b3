import type { CallDto } from "@/lib/domains/calls";

/** The comparison page of two calls; the URL is the comparison. */
export function compareUrl(a: string, b: string): string {
  return `/history/compare?${new URLSearchParams({ a, b })}`;
}

/** The server's runner with this call's arguments filled in; the new call records it as its source. */
export function editUrl(call: Pick<CallDto, "id" | "serverId" | "method" | "name">): string {
  const kind = call.method === "prompts/get" ? "prompt" : "tool";
  return `/servers/${encodeURIComponent(call.serverId)}?${new URLSearchParams({ [kind]: call.name, from: call.id })}`;
}
