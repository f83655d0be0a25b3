// Preloaded with `node --require` into a console by tests/integration/source-maps.test.ts: on
// SIGUSR2 it writes to $SWITCHBOARD_TEST_SOURCE_MAP_PROBE which loaded modules Node holds a source
// map for: one of our own TypeScript modules (or the compiled server's lib/start chunk), the MCP
// SDK's client (an ES module package), Next's server, a built chunk and the first few CommonJS
// modules found with one; and whatever of tsx is loaded (tests/integration/compiled-server.test.ts).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { findSourceMap } = require("node:module");
const { fileURLToPath, pathToFileURL } = require("node:url");
const { isMainThread } = require("node:worker_threads");

const ROOT = path.resolve(__dirname, "../..");
const file = process.env.SWITCHBOARD_TEST_SOURCE_MAP_PROBE;
if (file && isMainThread) {
  process.on("SIGUSR2", () => {
    const own = findSourceMap(pathToFileURL(path.join(ROOT, "lib/start/index.ts")).href);
    // The compiled server's lib/start chunk (scripts/compile-server.mjs), when that is what runs:
    // dist/ or a test run's own build (tests/support/compile-setup.ts).
    const dist = process.argv[1]?.endsWith(".mjs") ? path.dirname(process.argv[1]) : path.join(ROOT, "dist");
    const startChunk = fs.existsSync(dist) ? fs.readdirSync(dist).find((f) => /^start-\w+\.mjs$/.test(f)) : undefined;
    const compiled = startChunk && findSourceMap(pathToFileURL(path.join(dist, startChunk)).href);
    const loaded = Object.keys(require.cache).filter((f) => !/\.[cm]?tsx?$/.test(f));
    const chunks = loaded.filter((f) => f.includes(`${path.sep}server${path.sep}chunks${path.sep}`));
    // Each map found is parsed here, which takes a while with every map kept: a few are enough.
    const mapped = [];
    for (const f of loaded) if (mapped.length < 5 && findSourceMap(f)) mapped.push(f);
    const has = (f) => f !== undefined && findSourceMap(f) !== undefined;
    fs.writeFileSync(
      file,
      JSON.stringify({
        ownSources: own?.payload.sources ?? null,
        compiledSources: compiled ? compiled.payload.sources.map((f) => path.relative(ROOT, f.startsWith("file:") ? fileURLToPath(f) : path.resolve(dist, f))) : null,
        tsx: [...process.execArgv, ...Object.keys(require.cache)].filter((f) => /(^|[\\/])tsx([\\/]|$)/.test(f)),
        sdkMapped: has(pathToFileURL(path.join(ROOT, "node_modules/@modelcontextprotocol/client/dist/index.mjs")).href),
        nextServerMapped: has(require.resolve("next/dist/server/next-server.js", { paths: [ROOT] })),
        chunkMapped: has(chunks[0]),
        loaded: loaded.length,
        chunks: chunks.length,
        mapped,
      }),
    );
  });
}
