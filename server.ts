import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next, { type NextConfig } from "next";

// App Router route handlers cannot accept WebSocket upgrades, so this process hosts Next and
// hands every upgrade that is not the agent relay's back to Next (dev HMR uses them).
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";

async function main() {
  const { databaseUrl, isPostgresUrl, secureDataFiles } = await import("./lib/db/url");
  secureDataFiles();
  // The process's in-memory state, shared by this module graph and Next's bundles (lib/runtime).
  const { startRuntime } = await import("./lib/runtime");
  const me = startRuntime().instanceId;
  const app = next({ dev, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const upgrade = app.getUpgradeHandler();
  // Scripts' bearer-token API requests skip Next's pipeline (same handlers); see lib/api/bearer-routes.ts.
  const { bearerApiRoutes, headersForEveryPath } = await import("./lib/api/bearer-routes");
  const configFile = "./next.config.js";
  const nextConfig = ((await import(configFile)) as { default: NextConfig }).default;
  const direct = dev || process.env.SWITCHBOARD_DIRECT_API === "0" ? null : bearerApiRoutes({ distDir: nextConfig.distDir ?? ".next", headers: await headersForEveryPath(nextConfig) });
  const { attachRelay } = await import("./lib/relay/socket-server");
  const { startInstance } = await import("./lib/instances/lifecycle");
  const { instanceCalls } = await import("./lib/calls/journal");
  const { startSandboxServer } = await import("./lib/apps/sandbox-server");
  const { startRetention, stopRetention } = await import("./lib/retention/scheduler");
  const { startSearchIndexer, stopSearchIndexer } = await import("./lib/calls/search-index");
  const { insertAuditEvents } = await import("./lib/audit/queries");
  const { forgetRollupsBefore } = await import("./lib/stats/rollup");

  // On PostgreSQL other instances may share the database: join them (events, agents, forwarding).
  const { startCluster } = await import("./lib/cluster/start");
  const events = await import("./lib/events/bus");
  const hub = await import("./lib/relay/hub");
  const cluster = isPostgresUrl(databaseUrl())
    ? startCluster({
        databaseUrl: databaseUrl(),
        instanceId: me,
        events,
        relay: {
          ...hub,
          revokeHere: (agentId) => hub.isAgentHere(agentId) && (hub.revokeLink(agentId), true),
          onLinkChanged: (listener) => (hub.relayHub().linkChanged = listener),
          onRevokeElsewhere: (listener) => (hub.relayHub().revokeElsewhere = listener),
        },
      })
    : null;
  // A call still pending from a stopped instance never gets its answer: say so, never lose it.
  const instance = await startInstance({ calls: instanceCalls, onGone: (ids) => cluster?.forget(ids) });

  // Writes in flight (calls among them) are what a graceful stop waits for; event streams are GETs.
  const writes = new Set<ServerResponse>();
  let draining = false;
  let drained = () => {};
  const { refusedTarget, declaredBodyCap, FORWARDED_HEADER, FORWARDING_HEADERS } = await import("./lib/api/request-target");
  const trustProxy = process.env.SWITCHBOARD_TRUST_PROXY === "1";
  const server = createServer((req, res) => {
    if (draining) return refuse(res, 503, "unavailable", "The console is shutting down", { "retry-after": "5" });
    // Which route a request names is read here once, for both pipelines (lib/api/request-target.ts).
    const refused = refusedTarget(req.url, req.headers, trustProxy);
    if (refused) return refuse(res, 400, "bad_request", refused);
    const cap = declaredBodyCap(req.url!.split("?")[0]!);
    if (cap !== null && req.headers["transfer-encoding"]) return refuseBody(req, res, 411, "A request body here must declare its Content-Length");
    if (cap !== null && Number(req.headers["content-length"] ?? 0) > cap) return refuseBody(req, res, 413, `Request body is larger than ${cap} bytes`);
    // The audit log's "from where": the socket's address, never a value the client sent.
    req.headers["x-switchboard-client-ip"] = req.socket.remoteAddress ?? "";
    req.headers[FORWARDED_HEADER] = FORWARDING_HEADERS.filter((name) => req.headers[name] !== undefined).join(",");
    if (req.method !== "GET" && req.method !== "HEAD") {
      writes.add(res);
      res.once("close", () => {
        writes.delete(res);
        if (!writes.size) drained();
      });
    }
    if (direct?.(req, res)) return;
    void handle(req, res);
  });
  const agentQueries = await import("./lib/agents/queries");
  const relay = attachRelay({
    publish: events.publish,
    agents: {
      findByTokenHash: (tokenHash) => agentQueries.findAgentByTokenHash({ tokenHash }),
      announceServers: agentQueries.announceServers,
      touch: agentQueries.touchAgent,
    },
  });
  server.on("upgrade", (req, socket, head) => {
    if (relay.handles(req)) relay.upgrade(req, socket, head);
    else void upgrade(req, socket, head);
  });
  // MCP Apps run on their own origin: a second port here, or SWITCHBOARD_SANDBOX_ORIGIN in front of it.
  const configuredSandboxPort = process.env.SWITCHBOARD_SANDBOX_PORT;
  const sandbox = await startSandboxServer({ host: hostname, port: Number(configuredSandboxPort ?? port + 1), fixed: configuredSandboxPort !== undefined });
  if (sandbox) process.env.SWITCHBOARD_SANDBOX_PORT = String(sandbox.port);
  else delete process.env.SWITCHBOARD_SANDBOX_PORT;

  const { countUsers } = await import("./lib/workspaces/queries");
  const { setupCode } = await import("./lib/workspaces/setup-code");
  const needsSetup = (await countUsers()) === 0;
  // Without this a port already in use is an uncaught exception that Next swallows: the process
  // would live on serving nothing.
  server.once("error", (err) => {
    console.error(`Cannot listen on ${hostname}:${port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(port, hostname, () => {
    console.log(`Switchboard listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
    // Anyone who can reach the console could otherwise claim it first.
    if (needsSetup) console.log(`Set-up code (needed to set up from another machine): ${setupCode()}`);
  });
  // Per-workspace retention: purge history older than the workspace keeps, now and every hour.
  startRetention({ recordAudit: insertAuditEvents, onCallsPurged: forgetRollupsBefore });
  // SQLite's history search index is kept in batches behind the call path (lib/calls/search-index.ts).
  startSearchIndexer({ sqlite: !isPostgresUrl(databaseUrl()) });

  // Stop taking requests, let the writes in flight finish for up to the grace period, then record
  // what is still pending as interrupted (never left pending) and exit.
  const graceMs = Number(process.env.SWITCHBOARD_SHUTDOWN_GRACE_MS ?? 10_000);
  const shutdown = async () => {
    if (draining) return;
    draining = true;
    stopRetention();
    server.close();
    server.closeIdleConnections();
    if (writes.size) console.log(`Stopping: waiting up to ${graceMs} ms for ${writes.size} request(s) in flight`);
    if (writes.size) await new Promise<void>((resolve) => ((drained = resolve), setTimeout(resolve, graceMs)));
    relay.close();
    sandbox?.close();
    // The gateway's bridged hosts: their handlers, then their upstream sessions (left politely).
    const rt = startRuntime();
    await Promise.allSettled([...(rt.gatewayBridges?.entries.values() ?? [])].map((bridge) => bridge.handler.close()));
    await Promise.allSettled([...(rt.gatewayBridgeSessions?.entries.values() ?? [])].map((session) => session.server.close()));
    await rt.gatewayUpstreams?.close().catch(() => undefined);
    const cut = await instance.stop().catch(() => 0);
    // After the calls still running were marked interrupted: they are indexed too.
    await stopSearchIndexer();
    await cluster?.close();
    if (cut) console.log(`${cut} call(s) still running at shutdown marked interrupted`);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
}

function refuse(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", connection: "close", ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

// Past this much of a refused body the connection is cut.
const DISCARD_BYTES = 32 * 1024 * 1024;

/**
 * Answered before any of the body is read. What the client goes on sending is read and dropped
 * (Node does that for an unread body), not kept, so it gets its answer instead of a reset
 * connection; a client still sending past DISCARD_BYTES is cut off.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, status: 411 | 413, message: string): void {
  let discarded = 0;
  req.on("data", (chunk: Buffer) => (discarded += chunk.length) > DISCARD_BYTES && req.socket.destroy());
  const body = JSON.stringify({ error: { code: status === 413 ? "payload_too_large" : "bad_request", message } });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
