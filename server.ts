import { createServer } from "node:http";
import next from "next";

// App Router route handlers cannot accept WebSocket upgrades, so this process hosts Next and
// hands every upgrade that is not the agent relay's back to Next (dev HMR uses them).
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";

async function main() {
  const { secureDataFiles } = await import("./lib/db/url");
  secureDataFiles();
  const app = next({ dev, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const upgrade = app.getUpgradeHandler();
  const { attachRelay } = await import("./lib/relay/socket-server");
  const { interruptPending } = await import("./lib/calls/queries");
  const { startSandboxServer } = await import("./lib/apps/sandbox-server");
  const { startRetention, stopRetention } = await import("./lib/retention/scheduler");
  const { insertAuditEvents } = await import("./lib/audit/queries");

  // A call still pending from a previous process never got its answer: say so, never lose it.
  const { count } = await interruptPending();
  if (count) console.log(`${count} call(s) left pending by the previous run marked interrupted`);

  const server = createServer((req, res) => {
    // The audit log's "from where": the socket's address, never a value the client sent.
    req.headers["x-switchboard-client-ip"] = req.socket.remoteAddress ?? "";
    void handle(req, res);
  });
  const relay = attachRelay();
  server.on("upgrade", (req, socket, head) => {
    if (relay.handles(req)) relay.upgrade(req, socket, head);
    else void upgrade(req, socket, head);
  });
  // MCP Apps run on their own origin: a second port here, or SWITCHBOARD_SANDBOX_ORIGIN in front of it.
  const configuredSandboxPort = process.env.SWITCHBOARD_SANDBOX_PORT;
  const sandbox = await startSandboxServer({ host: hostname, port: Number(configuredSandboxPort ?? port + 1), fixed: configuredSandboxPort !== undefined });
  if (sandbox) process.env.SWITCHBOARD_SANDBOX_PORT = String(sandbox.port);
  else delete process.env.SWITCHBOARD_SANDBOX_PORT;

  server.listen(port, hostname, () => {
    console.log(`Switchboard listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
  });
  // Per-workspace retention: purge history older than the workspace keeps, now and every hour.
  startRetention({ recordAudit: insertAuditEvents });

  const shutdown = () => {
    stopRetention();
    relay.close();
    sandbox?.close();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
