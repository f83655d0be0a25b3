import { createServer } from "node:http";
import { register } from "node:module";

// The console's process: one HTTP server whose requests and upgrades (the agent relay's
// WebSocket, dev HMR) go to the console lib/start builds. Every module loads in this one graph,
// where "server-only" is an empty module (lib/start/node-hooks.mjs).
register("./lib/start/node-hooks.mjs", import.meta.url);

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";

async function main() {
  const { start } = await import("./lib/start");
  const app = await start({ dev, hostname, port });
  const server = createServer(app.request);
  server.on("upgrade", app.upgrade);
  // Without this a port already in use is an uncaught exception that Next swallows: the process
  // would live on serving nothing.
  server.once("error", (err) => {
    console.error(`Cannot listen on ${hostname}:${port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(port, hostname, app.listening);
  const stop = () => void app.shutdown(server).then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
