import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startConsole, type ConsoleHandle } from "../tests/support/console";
import { createTestPostgresDatabase, startPostgres } from "../tests/support/postgres";

// BENCH_DOCS=<file>: sections go there instead (a trial run leaves docs/benchmarks.md as it is).
const FILE = path.resolve(process.env.BENCH_DOCS ?? path.join(import.meta.dirname, "../docs/benchmarks.md"));

export interface Sample {
  label: string;
  inFlight: number;
  latencies: number[];
  wallMs: number;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Runs `once` `total` times with `inFlight` concurrent workers, timing each call. */
export async function measure(label: string, inFlight: number, total: number, once: () => Promise<void>): Promise<Sample> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < total) {
        const start = performance.now();
        await once();
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { label, inFlight, latencies, wallMs: performance.now() - t0 };
}

export function row(s: Sample): { p50: number; p95: number; rate: number } {
  return { p50: percentile(s.latencies, 50), p95: percentile(s.latencies, 95), rate: (s.latencies.length / s.wallMs) * 1000 };
}

/** The markdown table of a run: one row per sample. */
export function table(samples: Sample[]): string[] {
  return [
    "| path | in flight | p50 ms | p95 ms | calls/s |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...samples.map((s) => {
      const r = row(s);
      return `| ${s.label} | ${s.inFlight} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.rate.toFixed(0)} |`;
    }),
  ];
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Replaces (or appends) the `## title` section of docs/benchmarks.md. */
export function writeSection(title: string, body: string): void {
  const header = "# Benchmarks\n\nWritten by `npm run bench` (`npm run bench:compare -- <revision> --write`: a revision against this tree, interleaved). Each section records the machine and date of its run.\n";
  const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, "utf8") : header;
  const sections = current.split(/^(?=## )/m);
  const head = sections[0]!.startsWith("## ") ? header : sections[0]!;
  const rest = sections.filter((s) => s.startsWith("## ") && !s.startsWith(`## ${title}\n`));
  const mine = `## ${title}\n\n${body.trim()}\n\n`;
  const ordered = [...rest, mine].sort((a, b) => a.localeCompare(b));
  fs.writeFileSync(FILE, [head.trimEnd() + "\n\n", ...ordered].join(""));
}

/**
 * Runs a benchmark against a fresh console on SQLite, then on a throwaway PostgreSQL server on
 * loopback (tests/support/postgres.ts), labelled by database. BENCH_DATABASES=sqlite or
 * =postgresql runs one of them.
 */
export async function onBothDatabases(name: string, run: (sb: ConsoleHandle, label: string) => Promise<void>): Promise<void> {
  const only = process.env.BENCH_DATABASES ?? "sqlite,postgresql";
  if (only.includes("sqlite")) await run(await startConsole(), "SQLite");
  if (!only.includes("postgresql")) return;
  const server = await startPostgres();
  try {
    process.env.SWITCHBOARD_TEST_POSTGRES_URL = server.url();
    await run(await startConsole({ databaseUrl: await createTestPostgresDatabase(name) }), "PostgreSQL");
  } finally {
    await server.stop();
  }
}
