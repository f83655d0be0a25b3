// Shared by lib/start's module graph (the channel) and Next's bundles (forwarding), in the process
// runtime. Nothing here may import "server-only".

import { config } from "@/lib/core/config";
import { piece } from "@/lib/core/runtime";

/** What this instance knows of the other console instances sharing its PostgreSQL database. */
interface ClusterRegistry {
  /** Other instances' URLs (SWITCHBOARD_INSTANCE_URL), as they announced them. */
  urls: Map<string, string>;
  /** Other instances' event-stream watchers, per workspace. */
  watchers: Map<string, Map<string, number>>;
}

export function clusterRegistry(): ClusterRegistry {
  return piece("cluster", () => ({ urls: new Map(), watchers: new Map() }));
}

/** Where another instance answers, or null when it has not announced itself (or is gone). */
export function instanceUrl(instanceId: string): string | null {
  return clusterRegistry().urls.get(instanceId) ?? null;
}

/**
 * The URL other instances reach this one at: SWITCHBOARD_INSTANCE_URL, or this process's own
 * listening address (enough for instances on one host, and for containers that set HOST to
 * their own name).
 */
export function ownInstanceUrl(): string {
  const { instanceUrl: configured, host, port } = config();
  if (configured) return configured.replace(/\/$/, "");
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}
