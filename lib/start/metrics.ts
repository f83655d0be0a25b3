import type { IncomingMessage, ServerResponse } from "node:http";
import { defineGauge } from "@/lib/core/metrics";
import { metricsAnswer } from "@/lib/core/metrics/server";
import { runtime } from "@/lib/core/runtime";
import { searchIndexBacklog } from "@/lib/domains/calls/search-index";
import { listServerNames } from "@/lib/domains/servers/queries";
import { gatewayHostCounts } from "@/lib/gateway/server";
import { relayHub } from "@/lib/relay/hub";
import { countOpenIncidents } from "@/lib/watch/monitors/queries";

// Figures read from the database are the same on every instance: labelled scope="cluster" so a
// dashboard takes max() of them across instances, never sum() (docs/operations.md, "Metrics").
const CLUSTER = { scope: "cluster" };

/**
 * The state gauges of lib/core/metrics, read at each scrape from the parts that keep the state
 * (the call path's counters are the journal's, lib/domains/calls/journal.ts).
 */
export function defineStateMetrics({ sqlite }: { sqlite: boolean }): void {
  defineGauge({ name: "switchboard_instance_info", help: "This console instance (1), with its id", labelNames: ["instance_id"], collect: () => [{ labels: { instance_id: runtime().instanceId }, value: 1 }] });
  defineGauge({
    name: "switchboard_gateway_sessions",
    help: "Hosts connected through this instance's gateway: relayed sessions (kind=relayed) and bridged hosts under each server they reach (kind=bridged)",
    labelNames: ["kind"],
    collect: () => {
      const { relayed, bridged } = gatewayHostCounts();
      return [{ labels: { kind: "relayed" }, value: relayed }, { labels: { kind: "bridged" }, value: bridged }];
    },
  });
  defineGauge({ name: "switchboard_agents_connected", help: "Relay agents connected to this instance", collect: () => [{ value: relayHub().links.size }] });
  defineGauge({ name: "switchboard_agent_sessions", help: "MCP sessions relayed to agents' stdio servers through this instance", collect: () => [{ value: relayHub().sessions.size }] });
  defineGauge({
    name: "switchboard_incidents_open",
    help: "Open monitor incidents of every workspace, by kind (read from the database: the same on every instance)",
    labelNames: ["kind", "scope"],
    collect: async () => (await countOpenIncidents()).map((g) => ({ labels: { kind: g.kind, ...CLUSTER }, value: g._count._all })),
  });
  defineGauge({
    name: "switchboard_server_info",
    help: "Each active server (1), naming it: join call figures (labelled by server_id) to names (read from the database)",
    labelNames: ["server_id", "server", "workspace_id", "scope"],
    collect: async () => (await listServerNames()).map((s) => ({ labels: { server_id: s.id, server: s.name, workspace_id: s.workspaceId, ...CLUSTER }, value: 1 })),
  });
  if (sqlite) {
    defineGauge({
      name: "switchboard_search_index_backlog",
      help: "SQLite: finished calls not yet in the history search index",
      labelNames: ["scope"],
      collect: async () => {
        const backlog = await searchIndexBacklog();
        return backlog === null ? [] : [{ labels: CLUSTER, value: backlog }];
      },
    });
  }
}

/** GET /metrics, before the API and Next (in development too: no route file, so one path serves it). */
export function metricsPipeline() {
  return function handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.url?.split("?")[0] !== "/metrics") return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "application/json", allow: "GET, HEAD" });
      res.end(JSON.stringify({ error: { code: "method_not_allowed", message: `${req.method} is not allowed here` } }));
      return true;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    void metricsAnswer(headers)
      .then((answer) => {
        res.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
        res.end(req.method === "HEAD" ? undefined : answer.body);
      })
      .catch((err: unknown) => {
        console.error("[metrics] scrape failed", err);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "internal", message: "Internal error; see the console's log" } }));
      });
    return true;
  };
}
