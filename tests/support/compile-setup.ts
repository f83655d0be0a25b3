import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PREFIX = ".dist-test-";

interface Run {
  dir: string;
  users: number;
}

// Each project of a run (integration, integration-postgres, interop) runs this set-up in the one
// vitest process: the first compiles, the last teardown removes the output.
const shared = globalThis as { switchboardTestCompiled?: Run };

/**
 * Vitest global set-up of the integration projects: compiles the console (scripts/compile-server.mjs,
 * about a second) into a directory of this run's own, `.dist-test-<pid>/`, which every console of the
 * run starts from (tests/support/console.ts): what production runs, without tsx's CPU at each start,
 * and never a stale or half-replaced dist/ (another run's consoles may be using theirs).
 * SWITCHBOARD_TEST_FROM_SOURCE=1 runs every console from source instead, and compiles nothing.
 */
export default function setup() {
  if (process.env.SWITCHBOARD_TEST_FROM_SOURCE === "1") return;
  const run = (shared.switchboardTestCompiled ??= { dir: compile(), users: 0 });
  run.users++;
  process.env.SWITCHBOARD_TEST_SERVER_ENTRY = path.join(run.dir, "server.mjs");
  return () => {
    if (--run.users > 0) return;
    fs.rmSync(run.dir, { recursive: true, force: true });
    delete shared.switchboardTestCompiled;
  };
}

function compile(): string {
  removeAbandoned();
  const dir = path.join(ROOT, `${PREFIX}${process.pid}`);
  const out = spawnSync(process.execPath, ["scripts/compile-server.mjs", "--outdir", path.relative(ROOT, dir)], { cwd: ROOT, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`scripts/compile-server.mjs failed:\n${out.stdout}${out.stderr}`);
  return dir;
}

/** Outputs of runs whose process is gone (killed before its teardown). */
function removeAbandoned() {
  for (const name of fs.readdirSync(ROOT).filter((n) => n.startsWith(PREFIX))) {
    const pid = Number(name.slice(PREFIX.length));
    if (Number.isInteger(pid) && !alive(pid)) fs.rmSync(path.join(ROOT, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
