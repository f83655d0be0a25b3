// Compiles the console's own process (server.ts, lib/start and all it loads: lib/, app/api) to
// JavaScript in dist/, so production runs `node dist/server.mjs` with no TypeScript transpiled at
// start. Packages stay imports of node_modules; Next's pages are Next's build (.next). scripts/build.sh
// runs it after `next build`. `--outdir <dir>` (relative to the tree): elsewhere than dist/, as the
// integration tests compile their own (tests/support/compile-setup.ts).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.resolve(root, parseArgs({ options: { outdir: { type: "string", default: "dist" } } }).values.outdir);
const rootFromOut = `${path.relative(outdir, root).split(path.sep).join("/")}/`;

/**
 * Every module keeps, as `import.meta.url`, the URL of its source file: what a module reads beside
 * itself (lib/domains/apps/sandbox-proxy.js, next.config.js, lib/start/node-hooks.mjs) resolves as it does
 * from source. Relative to the output, so the tree can move; every output file is directly in the output.
 */
const sourceUrls = {
  name: "source-urls",
  setup(b) {
    b.onLoad({ filter: /\.(?:[cm]?ts|tsx|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const own = path.relative(root, args.path).split(path.sep).join("/");
      const url = `new URL(${JSON.stringify(own)}, new URL(${JSON.stringify(rootFromOut)}, import.meta.url)).href`;
      return { contents: source.replaceAll("import.meta.url", url), loader: path.extname(args.path).slice(1).replace(/^[cm](?=ts)/, "") };
    });
  },
};

// "server-only" guards browser bundles; every module here is a server module.
const serverOnly = {
  name: "server-only",
  setup(b) {
    b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

// Packages stay imports of node_modules; `@/…` (tsconfig's paths) is ours and must resolve.
const packagesExternal = {
  name: "packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@/") ? undefined : { path: args.path, external: true }));
  },
};

// Beside the output, so the maps' relative paths to the sources hold once it is renamed into place.
const staging = fs.mkdtempSync(path.join(path.dirname(outdir), ".dist-"));
try {
  await compile();
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.renameSync(staging, outdir);
} catch {
  // esbuild has printed what failed.
  process.exitCode = 1;
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
}

async function compile() {
  await build({
    absWorkingDir: root,
    entryPoints: { server: "server.ts" },
    outdir: staging,
    bundle: true,
    // lib/start is a chunk of its own, loaded by server.ts once the module hooks are registered.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outExtension: { ".js": ".mjs" },
    // Linked maps name the .ts sources (read from the tree), so stack traces name our files and lines.
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    plugins: [serverOnly, packagesExternal, sourceUrls],
    logLevel: "warning",
  });
}
