// Bundles the CLI (what it uses of lib/ included, so `npx <console>/cli.tgz` needs no registry) into
// cli/dist/cli.js and packs it as public/cli.tgz, which the console serves at /cli.tgz.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const here = import.meta.dirname;
const root = path.resolve(here, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8"));
const outfile = path.join(here, "dist/cli.js");
const sources = [path.join(here, "src"), path.join(root, "lib/collections/junit.ts"), path.join(here, "package.json")];
const tarball = path.join(root, "public/cli.tgz");

function newest(p) {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

const upToDate = fs.existsSync(outfile) && fs.existsSync(tarball) && Math.max(...sources.map(newest)) < fs.statSync(tarball).mtimeMs;
if (upToDate && !process.argv.includes("--force")) process.exit(0);

console.log("› Building the CLI");
await build({
  entryPoints: [path.join(here, "src/cli.ts")],
  outfile,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minify: false,
  legalComments: "none",
  define: { CLI_VERSION: JSON.stringify(pkg.version) },
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning",
});
fs.chmodSync(outfile, 0o755);

fs.mkdirSync(path.dirname(tarball), { recursive: true });
const out = fs.mkdtempSync(path.join(root, "node_modules/.cache-cli-pack-"));
try {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: here, encoding: "utf8" }).trim().split("\n").pop();
  fs.renameSync(path.join(out, name), tarball);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
console.log(`  cli ${pkg.version} → ${path.relative(root, outfile)}, ${path.relative(root, tarball)}`);
