import { createServer } from "node:http";
import Module, { register } from "node:module";

const dev = process.argv.includes("--dev");
// Whoever read the log may go away (a closed terminal, a parent that died): each write would then
// fail, and logging that failure fails again, a loop that spun forever and kept a stop from finishing.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
}
// tsx turns Node's source maps on for the whole process, and Node then reads and keeps, as each
// module loads, the map its last line names: Next's runtime, the built chunks and packages' dist
// files brought 100+ MiB of strings no production stack trace needed. In production only our own
// TypeScript, run from source by tsx, keeps its map; SWITCHBOARD_SOURCE_MAPS=all keeps them all.
const ownMapsOnly = !dev && process.env.NODE_ENV === "production" && process.env.SWITCHBOARD_SOURCE_MAPS !== "all";
if (ownMapsOnly) {
  const compile = (Module.prototype as unknown as { _compile(content: string, filename: string, ...rest: unknown[]): unknown })._compile;
  Object.assign(Module.prototype, {
    _compile(this: unknown, content: string, filename: string, ...rest: unknown[]) {
      return compile.call(this, /\.[cm]?tsx?$/.test(filename) ? content : withoutMapComments(content), filename, ...rest);
    },
  });
}

/** The source without the `//# sourceMappingURL=` lines it ends with (tsx adds its own after a package's). */
function withoutMapComments(source: string): string {
  let end = source.length;
  for (;;) {
    const at = source.lastIndexOf("\n//# sourceMappingURL=", end - 2);
    if (at < 0 || source.slice(at + 1, end).trimEnd().includes("\n")) break;
    end = at + 1;
  }
  return end === source.length ? source : source.slice(0, end);
}

// The console's process: one HTTP server whose requests and upgrades (the agent relay's
// WebSocket, dev HMR) go to the console lib/start builds. Every module loads in this one graph,
// where "server-only" is an empty module and, as above, only our own modules name a source map
// (lib/start/node-hooks.mjs).
register("./lib/start/node-hooks.mjs", import.meta.url, { data: { ownMapsOnly } });

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";

async function main() {
  const { start } = await import("./lib/start");
  const app = await start({ dev, hostname, port });
  const server = createServer(app.serverOptions, app.request);
  server.on("upgrade", app.upgrade);
  // Node hands a CONNECT over like an upgrade (and without a listener drops it unanswered).
  server.on("connect", app.upgrade);
  server.on("clientError", app.clientError);
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
