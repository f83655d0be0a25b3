import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "../tests/support/console";
import { freePort } from "../tests/support/servers";
import { machine, percentile, writeSection } from "./report";

// `npx tsx bench/restart.ts` on a built tree (scripts/build.sh): how long a restart takes until the
// console answers, for `npm start` (scripts/start.sh: its checks, then the compiled server) and for
// the server process alone, compiled and from source (tsx), interleaved round by round on one
// migrated SQLite database. SWITCHBOARD_BENCH_RESTART_ROUNDS (5), _VARIANTS (npm-start,compiled,source).
const ROOT = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.SWITCHBOARD_BENCH_RESTART_ROUNDS ?? 5);
const VARIANTS: Record<string, { label: string; command: string[] }> = {
  "npm-start": { label: "`npm start` (scripts/start.sh), nothing changed", command: ["bash", "scripts/start.sh"] },
  compiled: { label: "`node dist/server.mjs` alone", command: [process.execPath, "dist/server.mjs"] },
  source: { label: "`node --import tsx server.ts` alone (as before)", command: [process.execPath, "--import", "tsx", "server.ts"] },
};
const CHOSEN = (process.env.SWITCHBOARD_BENCH_RESTART_VARIANTS ?? "npm-start,compiled,source").split(",").map((v) => v.trim());
// Linux counts CPU time in ticks of 1/100 s (USER_HZ).
const TICK_MS = 10;

interface Run {
  wallMs: number;
  /** CPU time of the process and the steps it waited for (utime, stime, cutime, cstime) when it answered. */
  cpuMs: number;
  load: number;
  /** scripts/build.sh built (a source changed since the last build, e.g. edited during the run). */
  built: boolean;
}

/** Starts `command` until /api/v1/setup answers, then stops it. */
async function restart(command: string[], databaseUrl: string): Promise<Run> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, SWITCHBOARD_SECRET: "bench-secret-for-switchboard", NEXT_TELEMETRY_DISABLED: "1" };
  const started = performance.now();
  // start.sh ends by exec'ing node: the child is the console either way.
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`exited:\n${output}`);
      return (await fetch(`http://127.0.0.1:${port}/api/v1/setup`).catch(() => undefined))?.ok === true;
    }, 180_000, () => output);
    const wallMs = performance.now() - started;
    const stat = fs.readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const cpuMs = [11, 12, 13, 14].reduce((sum, i) => sum + Number(stat[i]), 0) * TICK_MS;
    return { wallMs, cpuMs, load: os.loadavg()[0]!, built: output.includes("Building what changed") };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

export async function benchRestart(): Promise<void> {
  if (spawnSync("bash", ["scripts/build.sh", "--check"], { cwd: ROOT }).status !== 0) throw new Error("Build first (scripts/build.sh): this measures a restart of a built console");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-restart-"));
  const databaseUrl = `file:${path.join(dir, "bench.db")}`;
  // The first start migrates the new database: reported apart.
  const first = await restart(VARIANTS["npm-start"]!.command, databaseUrl);
  const runs = new Map<string, Run[]>(CHOSEN.map((v) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of CHOSEN) runs.get(variant)!.push(await restart(VARIANTS[variant]!.command, databaseUrl));
  }
  const ms = (n: number) => `${Math.round(n).toLocaleString("en")} ms`;
  const lines = [
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${machine()}. ${ROUNDS} rounds, variants interleaved; until \`GET /api/v1/setup\` answers 200.`,
    `CPU: the process's and its finished steps' user + system time when it answered (threads run in parallel: it can exceed wall).`,
    "",
    "| start | wall p50 | wall min–max | CPU p50 | load average (1 min) |",
    "| --- | --- | --- | --- | --- |",
    `| \`npm start\`, first start on a new database (migrates) | ${ms(first.wallMs)} | – | ${ms(first.cpuMs)} | ${first.load.toFixed(1)} |`,
    ...CHOSEN.map((v) => {
      // A start that built measures the build: left out, and counted.
      const all = runs.get(v)!;
      const r = all.some((x) => !x.built) ? all.filter((x) => !x.built) : all;
      const note = all.length > r.length ? ` (${all.length - r.length} of ${all.length} left out: sources changed, it built)` : r.some((x) => x.built) ? " (**every start built**: sources changed)" : "";
      const wall = r.map((x) => x.wallMs);
      return `| ${VARIANTS[v]!.label}${note} | ${ms(percentile(wall, 50))} | ${ms(Math.min(...wall))}–${ms(Math.max(...wall))} | ${ms(percentile(r.map((x) => x.cpuMs), 50))} | ${Math.min(...r.map((x) => x.load)).toFixed(1)}–${Math.max(...r.map((x) => x.load)).toFixed(1)} |`;
    }),
  ];
  console.log(lines.join("\n"));
  writeSection("Restart of a built console", lines.join("\n"));
}

if (import.meta.filename === process.argv[1]) await benchRestart();
