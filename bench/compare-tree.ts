import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
// Written into node_modules (Prisma's generated clients) or replaced by a base's build: real copies,
// so that the base never writes into this tree's files through a hard link.
const COPIED = new Set([".prisma", "@prisma", "prisma", ".cache"]);
const READY = ".switchboard-compare-ready";

export interface BaseTree {
  dir: string;
  /** The short commit. */
  commit: string;
  /** Removes the worktree (unless kept). */
  remove(): void;
}

function git(args: string[], cwd = ROOT): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

function run(command: string, args: string[], cwd: string, what: string): void {
  const out = spawnSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: "" } });
  if (out.status !== 0) throw new Error(`${what} failed in ${cwd} (exit ${out.status})`);
}

/**
 * node_modules for the base: hard links to this tree's files (a second or two, no disk) when the
 * base's package-lock.json is this tree's, else `npm ci --offline` from npm's cache.
 */
function installModules(dir: string): void {
  const sameLock = fs.readFileSync(path.join(dir, "package-lock.json"), "utf8") === fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8");
  if (!sameLock) {
    console.log("› The base's package-lock.json differs: npm ci --offline");
    run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], dir, "npm ci --offline");
    return;
  }
  const from = path.join(ROOT, "node_modules");
  const to = path.join(dir, "node_modules");
  fs.mkdirSync(to);
  for (const name of fs.readdirSync(from)) {
    const src = path.join(from, name);
    // The workspace link (../agent) stays relative: it names the base's own agent.
    if (fs.lstatSync(src).isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(src), path.join(to, name));
    else run("cp", [COPIED.has(name) ? "-a" : "-al", src, path.join(to, name)], dir, `copying node_modules/${name}`);
  }
}

/**
 * BASE checked out into a worktree under the temp directory and built there (scripts/build.sh: its
 * Prisma clients, agent, route table, Next build and compiled server). A kept tree of the same
 * commit (`keep`) is used again as it is.
 */
export function prepareBase(base: string, { keep = false } = {}): BaseTree {
  const commit = git(["rev-parse", "--short", `${base}^{commit}`]);
  const dir = path.join(os.tmpdir(), `sb-compare-${commit}`);
  const remove = () => {
    if (keep) return;
    spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: ROOT, stdio: "ignore" });
    fs.rmSync(dir, { recursive: true, force: true });
    spawnSync("git", ["worktree", "prune"], { cwd: ROOT, stdio: "ignore" });
  };
  if (fs.existsSync(path.join(dir, READY))) {
    console.log(`› Using the built base in ${dir}`);
    return { dir, commit, remove };
  }
  if (fs.existsSync(dir)) {
    spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: ROOT, stdio: "ignore" });
    fs.rmSync(dir, { recursive: true, force: true });
    spawnSync("git", ["worktree", "prune"], { cwd: ROOT, stdio: "ignore" });
  }
  try {
    const t0 = performance.now();
    git(["worktree", "add", "--detach", dir, commit]);
    installModules(dir);
    fs.mkdirSync(path.join(dir, ".next"), { recursive: true });
    // Turbopack's build cache from this tree's last build: the base's build reuses what did not change.
    const cache = path.join(ROOT, ".next/cache");
    if (fs.existsSync(cache)) run("cp", ["-a", cache, path.join(dir, ".next/cache")], dir, "copying .next/cache");
    const t1 = performance.now();
    run("bash", ["scripts/build.sh"], dir, "scripts/build.sh");
    fs.writeFileSync(path.join(dir, READY), "");
    console.log(`› Base ${commit} ready in ${dir}: node_modules ${((t1 - t0) / 1000).toFixed(1)} s, build ${((performance.now() - t1) / 1000).toFixed(0)} s`);
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, commit, remove };
}

/** Migrates a new SQLite database with the base's own migrations and Prisma. */
export function migratedBaseDatabase(dir: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-compare-db-")), "base.db");
  const out = spawnSync(process.execPath, [path.join(dir, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    encoding: "utf8",
  });
  if (out.status !== 0) throw new Error(`migrate deploy in the base failed:\n${out.stdout}\n${out.stderr}`);
  return `file:${file}`;
}
