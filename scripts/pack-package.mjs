// Bundles a small package of this repository (the agent, the CLI) with everything it imports into
// <dir>/dist/cli.js and packs it as public/<name>.tgz, which the console serves at /<name>.tgz, so
// `npx <console>/<name>.tgz` needs no registry. Skipped when nothing is newer than the tarball.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

function newest(p) {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newest(path.join(p, f))));
}

/**
 * @param {{ dir: string; name: string; label: string; alsoFrom: string[]; versionConstant: string; external?: string[]; banner?: string }} options
 * `alsoFrom`: files outside `dir` the bundle takes in (a rebuild when they change).
 */
export async function packPackage({ dir, name, label, alsoFrom, versionConstant, external = [], banner = "" }) {
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const outfile = path.join(dir, "dist/cli.js");
  const tarball = path.join(root, `public/${name}.tgz`);
  const sources = [path.join(dir, "src"), path.join(dir, "package.json"), ...alsoFrom.map((f) => path.join(root, f))];
  const upToDate = fs.existsSync(outfile) && fs.existsSync(tarball) && Math.max(...sources.map(newest)) < fs.statSync(tarball).mtimeMs;
  if (upToDate && !process.argv.includes("--force")) return;

  console.log(`› Building the ${label}`);
  await build({
    entryPoints: [path.join(dir, "src/cli.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    minify: false,
    legalComments: "none",
    external,
    define: { [versionConstant]: JSON.stringify(pkg.version) },
    banner: { js: `#!/usr/bin/env node${banner ? `\n${banner}` : ""}` },
    logLevel: "warning",
  });
  fs.chmodSync(outfile, 0o755);

  fs.mkdirSync(path.dirname(tarball), { recursive: true });
  const out = fs.mkdtempSync(path.join(root, `node_modules/.cache-${name}-pack-`));
  try {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop();
    fs.renameSync(path.join(out, packed), tarball);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
  console.log(`  ${name} ${pkg.version} → ${path.relative(root, outfile)}, ${path.relative(root, tarball)}`);
}
