// Bundles the agent (its deps included, so `npx <console>/agent.tgz` needs no registry) into
// agent/dist/cli.js and packs it as public/agent.tgz, which the console serves at /agent.tgz.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const root = path.resolve(here, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
const outfile = path.join(here, "dist/cli.js");
const sources = [path.join(here, "src"), path.join(root, "lib/relay/protocol.ts"), path.join(here, "package.json")];
const tarball = path.join(root, "public/agent.tgz");

function newest(p) {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const upToDate = fs.existsSync(outfile) && fs.existsSync(tarball) && Math.max(...sources.map(newest)) < fs.statSync(tarball).mtimeMs;
if (upToDate && !process.argv.includes("--force")) process.exit(0);

console.log("› Building the agent");
await build({
  entryPoints: [path.join(here, "src/cli.ts")],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: false,
  legalComments: "none",
  external: ["bufferutil", "utf-8-validate"],
  define: { AGENT_VERSION: JSON.stringify(pkg.version) },
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __cr } from "node:module";\nconst require = __cr(import.meta.url);' },
  logLevel: "warning",
});
fs.chmodSync(outfile, 0o755);

fs.mkdirSync(path.dirname(tarball), { recursive: true });
const out = fs.mkdtempSync(path.join(root, "node_modules/.cache-agent-pack-"));
try {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: here, encoding: "utf8" }).trim().split("\n").pop();
  fs.renameSync(path.join(out, name), tarball);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
console.log(`  agent ${pkg.version} → ${path.relative(root, outfile)}, ${path.relative(root, tarball)}`);
