import { createServer } from "node:http";
import Module, { register } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadConfig } from "./lib/core/config";

const dev = process.argv.includes("--dev");
// Whoever read the log may go away (a closed terminal, a parent that died): each write would then
// fail, and logging that failure fails again, a loop that spun forever and kept a stop from finishing.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
  });
}
// Production runs this file compiled (dist/server.mjs, scripts/compile-server.mjs), where
// `import.meta.url` still names this source file; `npm run dev` runs it from source with tsx, which turns Node's source maps on for the whole process (here, for the
// compiled server). Node then reads and keeps, as each module loads, the map its last line names:
// Next's runtime, the built chunks and packages' dist files brought 100+ MiB of strings no
// production stack trace needed. In production only our own code (TypeScript, or dist/) keeps its
// map; SWITCHBOARD_SOURCE_MAPS=all keeps them all. All this happens before lib/start and the
// packages load (main, below).
// On already: run from source by tsx (or started with --enable-source-maps).
const mapsOnAtStart = process.sourceMapsEnabled;
process.setSourceMapsEnabled(true);
const compiledDir = fileURLToPath(new URL("./dist/", import.meta.url));

function keepSourceMaps({ ownMapsOnly }: { ownMapsOnly: boolean }) {
  if (ownMapsOnly) {
    const compile = (Module.prototype as unknown as { _compile(content: string, filename: string, ...rest: unknown[]): unknown })._compile;
    Object.assign(Module.prototype, {
      _compile(this: unknown, content: string, filename: string, ...rest: unknown[]) {
        const own = /\.[cm]?tsx?$/.test(filename) || filename.startsWith(compiledDir);
        return compile.call(this, own ? content : withoutMapComments(content), filename, ...rest);
      },
    });
  }
  // From source, every module loads in this one graph, where "server-only" is an empty module and,
  // as above, only our own ES modules name a source map (lib/start/node-hooks.mjs). The compiled
  // server left "server-only" out at build and goes without the hooks: their thread cost a second
  // of CPU at start, and packages' ES modules keep their maps (~8 MiB; Next's, CommonJS, do not).
  if (mapsOnAtStart) register("./lib/start/node-hooks.mjs", import.meta.url, { data: { ownMapsOnly, compiled: pathToFileURL(compiledDir).href } });
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
// WebSocket, dev HMR) go to the console lib/start builds.
async function main() {
  // lib/core/config loads nothing else; a bad variable stops the start here, with one message naming each.
  const { sourceMaps } = loadConfig();
  keepSourceMaps({ ownMapsOnly: !dev && process.env.NODE_ENV === "production" && sourceMaps !== "all" });
  const { start } = await import("./lib/start");
  const app = await start({ dev });
  const { hostname, port } = app;
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
