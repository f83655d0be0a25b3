import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http";
import path from "node:path";
import type { Duplex } from "node:stream";
import next, { type NextConfig } from "next";
import { apiPipeline, headersForEveryPath } from "@/lib/api/pipeline";
import * as agentQueries from "@/lib/domains/agents/queries";
import { instanceCalls } from "@/lib/domains/calls/journal";
import { stopSearchIndexer } from "@/lib/domains/calls/search-index";
import { instanceRuns } from "@/lib/domains/collections/queries";
import { instanceLoadTests } from "@/lib/domains/load-tests/queries";
import { instanceReplays } from "@/lib/domains/replays/queries";
import { followTasks } from "@/lib/domains/calls/server";
import { startCluster } from "@/lib/core/cluster/start";
import { databaseUrl, isPostgresUrl, secureDataFiles } from "@/lib/core/db/url";
import * as events from "@/lib/core/events/bus";
import { instanceConnections } from "@/lib/gateway/queries";
import { closeGateway } from "@/lib/gateway/server";
import { noticeApproval, snapshotOnConnect, withheldDefinition, withheldServed } from "@/lib/watch/drift/server";
import { registerApprovalNotifier } from "@/lib/domains/approvals/server";
import { registerDefinitionGuard, registerGroupResolver } from "@/lib/domains/policies/server";
import { memberGroups } from "@/lib/identity/sso/groups";
import { startInstance } from "@/lib/core/instances/lifecycle";
import { installMemberWrites } from "@/lib/team/members/queries";
import { installCallStream } from "@/lib/core/audit/stream-calls";
import { monitorWork } from "@/lib/watch/monitors/server";
import * as hub from "@/lib/relay/hub";
import { attachRelay } from "@/lib/relay/socket-server";
import { startRuntime } from "@/lib/core/runtime";
import { startSandboxServer } from "@/lib/domains/apps/sandbox-server";
import { restoreAgentSessions } from "@/lib/domains/servers/server";
import { onSessionConnected } from "@/lib/domains/sessions/server";
import { sharePages } from "@/lib/domains/shares/server";
import { countUsers } from "@/lib/team/workspaces/queries";
import { setupCode } from "@/lib/team/workspaces/setup-code";
import { clientError, requestFront } from "./front";
import { startIdleCollector } from "./idle-collect";
import { consoleJobs } from "./jobs";
import { defineStateMetrics, metricsPipeline } from "./metrics";
import { heartbeatMs } from "@/lib/core/instances";
import { config, loadConfig } from "@/lib/core/config";
import { startScheduler } from "@/lib/core/scheduler";
import { startTracing, stopTracing } from "@/lib/core/telemetry";

// After the grace period for requests in flight, the rest of a stop gets this long.
const STOP_BOUND_MS = 15_000;

export interface StartOptions {
  dev: boolean;
}

/** What server.ts holds of the console: its HTTP server's options and handlers and the way to stop it. */
export interface Console {
  /** Where server.ts listens: HOST and PORT. */
  hostname: string;
  port: number;
  /** A client gets this long to send a request's head (Node's check runs every `connectionsCheckingInterval`). */
  serverOptions: Pick<ServerOptions, "headersTimeout" | "connectionsCheckingInterval">;
  request(req: IncomingMessage, res: ServerResponse): void;
  /** Upgrades and CONNECT requests. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** A request Node's parser refused. */
  clientError(err: NodeJS.ErrnoException, socket: Duplex): void;
  /** Logs what a person needs once the port is open. */
  listening(): void;
  /** Graceful stop: no new requests, writes in flight finish (up to the grace period), pending calls marked interrupted. */
  shutdown(server: Server): Promise<void>;
}

/**
 * The composition root: every piece of process state is created here, in this order, in this
 * module graph — the configuration, the database's files, the runtime, Next, the cluster channel
 * (PostgreSQL), this instance (which follows task calls it takes over), the API pipeline and the
 * request front, the agent relay, the MCP Apps sandbox, agents' sessions coming back, and the
 * scheduler with every periodic job (./jobs.ts). Nothing in lib/ starts itself at import.
 */
export async function start({ dev }: StartOptions): Promise<Console> {
  // A bad variable stops the start here, with one message naming each.
  const { host: hostname, port } = loadConfig();
  secureDataFiles();
  const me = startRuntime({ instanceId: config().instanceId ?? undefined }).instanceId;
  // Before anything serves: spans exported only when an OTLP endpoint is set (lib/core/telemetry).
  startTracing({
    export: (config().otlpEndpoint !== null || config().otlpTracesEndpoint !== null) && !config().otelSdkDisabled,
    serviceName: config().otelServiceName,
    instanceId: me,
    payloads: config().tracePayloads,
    attributeLimit: config().otelAttributeLimit,
    origin: config().url?.replace(/\/+$/, "") ?? `http://${hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname}:${port}`,
  });
  // lib/team/members' writes for lib/identity/auth and SSO, which sit below it.
  installMemberWrites();
  installCallStream();
  const postgres = isPostgresUrl(databaseUrl());
  const app = next({ dev, hostname, port });
  const nextRequest = app.getRequestHandler();
  await app.prepare();

  // On PostgreSQL other instances may share the database: join them (events, agents, forwarding).
  const cluster = postgres
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
  // Collection runs, load tests and replays of a stopped instance alike end interrupted.
  const bothRuns = {
    interruptOrphans: async (alive: string[]) => (await instanceRuns.interruptOrphans(alive)) + (await instanceLoadTests.interruptOrphans(alive)) + (await instanceReplays.interruptOrphans(alive)),
    interruptOwn: async (id: string) => (await instanceRuns.interruptOwn(id)) + (await instanceLoadTests.interruptOwn(id)) + (await instanceReplays.interruptOwn(id)),
  };
  // A call still pending from a stopped instance never gets its answer: say so, never lose it.
  const instance = await startInstance({ calls: instanceCalls, runs: bothRuns, connections: instanceConnections, followTasks, onGone: (ids) => cluster?.forget(ids) });
  // Monitors: every instance polls for due ticks and claims each once (docs/monitors.md).
  const monitors = config().monitors ? monitorWork() : null;

  // The API and the gateway through the console's own pipeline; Next serves them in development.
  const configFile = new URL("../../next.config.js", import.meta.url).href;
  const nextConfig = ((await import(configFile)) as { default: NextConfig }).default;
  const everyPath = await headersForEveryPath(nextConfig);
  const api = dev || !config().directApi ? null : apiPipeline({ headers: everyPath });
  // Share links' page loads: their prerendered shell with the link's status and data (Next in development).
  const sharePage = dev ? null : sharePages({ distDir: path.resolve(nextConfig.distDir ?? ".next"), headers: everyPath });
  const relay = attachRelay({
    publish: events.publish,
    agents: {
      findByTokenHash: (tokenHash) => agentQueries.findAgentByTokenHash({ tokenHash }),
      announceServers: agentQueries.announceServers,
      touch: agentQueries.touchAgent,
    },
  });
  // The time a client has to send a request's head or finish an upgrade's handshake; Node's
  // requestTimeout (300 s, a whole request's) bounds it.
  const handshakeMs = config().handshakeTimeoutMs;
  const front = requestFront({
    trustProxy: config().trustProxy,
    pipelines: [metricsPipeline(), ...(api ? [api] : []), ...(sharePage ? [sharePage] : []), (req, res) => void nextRequest(req, res)],
    // In development Next serves its HMR socket from the listener it adds to the server on its first request.
    upgrades: [relay, ...(dev ? [{ handles: (req: IncomingMessage) => req.url?.startsWith("/_next/") === true, upgrade: () => undefined }] : [])],
    handshakeMs,
  });
  // GET /metrics: this instance's figures, the state ones read at each scrape (./metrics.ts).
  defineStateMetrics({ sqlite: !postgres });
  // MCP Apps run on their own origin: a second port here, or SWITCHBOARD_SANDBOX_ORIGIN in front of it.
  const configuredSandboxPort = config().sandboxPort;
  const sandbox = await startSandboxServer({ host: hostname, port: configuredSandboxPort ?? port + 1, fixed: configuredSandboxPort !== null });
  // Capability drift: a snapshot of every connection that goes live (before agents' sessions come back).
  onSessionConnected(snapshotOnConnect);
  // Pinned definitions: the policy engine withholds what drift says changed since an admin approved it.
  registerDefinitionGuard(withheldDefinition, withheldServed);
  // Rules on IdP groups: a member's groups are those of their last SSO sign-in (lib/identity/sso).
  registerGroupResolver(memberGroups);
  // A held call's mail and webhook notice goes to its server's watch (lib/watch/drift).
  registerApprovalNotifier(noticeApproval);
  // An agent that comes back reopens the sessions its servers had.
  restoreAgentSessions();
  // Every periodic job (lib/start/jobs.ts): retention, drift's daily check, deliveries, monitors, sweepers…
  const jobs = startScheduler({ jobs: consoleJobs({ config: config(), sqlite: !postgres, monitors, beat: instance.beat }), instanceId: me, leaseMs: 3 * heartbeatMs(), pollMs: config().jobPollMs });
  // After a busy spell the heap V8 grew is given back once the console is quiet (idle-collect.ts).
  const idle = startIdleCollector({ quietMs: dev ? 0 : config().idleGcMs });
  const needsSetup = (await countUsers()) === 0;
  const graceMs = config().shutdownGraceMs;
  let stopping = false;

  return {
    hostname,
    port,
    serverOptions: { headersTimeout: handshakeMs, connectionsCheckingInterval: Math.min(Math.ceil(handshakeMs / 2), 30_000) },
    request(req, res) {
      idle.touch();
      front.request(req, res);
    },
    upgrade: front.upgrade,
    clientError,
    listening() {
      console.log(`Switchboard listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
      // Anyone who can reach the console could otherwise claim it first.
      if (needsSetup) console.log(`Set-up code (needed to set up from another machine): ${setupCode()}`);
    },
    async shutdown(server) {
      if (stopping) return;
      stopping = true;
      idle.stop();
      monitors?.stop();
      const jobsStopped = jobs.stop();
      const draining = front.drain(graceMs);
      server.close();
      server.closeIdleConnections();
      const inFlight = await draining;
      if (inFlight) console.log(`Stopped after waiting up to ${graceMs} ms for ${inFlight} request(s) in flight`);
      // What follows must not hold the process past a bound: a database that went away would.
      const cut = await Promise.race([
        (async () => {
          relay.close();
          sandbox?.close();
          await closeGateway();
          await jobsStopped;
          const interrupted = await instance.stop().catch(() => 0);
          // After the calls still running were marked interrupted: they are indexed too.
          if (!postgres && config().searchIndexMs > 0) await stopSearchIndexer();
          await cluster?.close();
          // The spans of what just ended (interrupted calls among them) leave before the process does.
          await stopTracing();
          return interrupted;
        })(),
        new Promise<number>((resolve) => setTimeout(() => (console.error(`Stopping took over ${STOP_BOUND_MS} ms; exiting anyway`), resolve(0)), STOP_BOUND_MS).unref()),
      ]);
      if (cut) console.log(`${cut} call(s) still running at shutdown marked interrupted`);
    },
  };
}
