import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startConsole, waitFor, type ConsoleHandle } from "../support/console";

const PROBE = path.resolve(import.meta.dirname, "../support/source-map-probe.cjs");
const consoles: ConsoleHandle[] = [];
afterAll(async () => {
  await Promise.all(consoles.map((c) => c.stop()));
});

/** Starts a console, opens pages (so Next loads its runtime and built chunks) and asks which modules have a source map. */
async function sourceMaps(env: Record<string, string> = {}) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-maps-")), "maps.json");
  // From source: what is tested here is lib/start/node-hooks.mjs, which only source registers.
  const sb = await startConsole({ compiled: false, env: { ...env, SWITCHBOARD_TEST_SOURCE_MAP_PROBE: out }, nodeArgs: ["--require", PROBE] });
  consoles.push(sb);
  for (const page of ["/", "/sign-in", "/setup"]) await (await fetch(`${sb.url}${page}`)).arrayBuffer();
  process.kill(sb.pid(), "SIGUSR2");
  // With every map kept, reading them back for the answer takes a while on a busy machine.
  await waitFor(() => fs.existsSync(out) && fs.statSync(out).size > 0, 60_000);
  return JSON.parse(fs.readFileSync(out, "utf8")) as { ownSources: string[] | null; sdkMapped: boolean; nextServerMapped: boolean; chunkMapped: boolean; loaded: number; chunks: number; mapped: string[] };
}

// Node keeps, at load, the source map of every module that names one once tsx has turned maps on:
// in production only our own TypeScript keeps its map (server.ts, lib/start/node-hooks.mjs).
describe("source maps in production", () => {
  it("keeps our own TypeScript's map, so stack traces name our files and lines, and no other module's", async () => {
    const maps = await sourceMaps();
    expect(maps.ownSources?.some((s) => s.endsWith("lib/start/index.ts"))).toBe(true);
    expect(maps.loaded).toBeGreaterThan(100);
    expect(maps.chunks).toBeGreaterThan(0);
    expect(maps.mapped).toEqual([]);
    expect([maps.sdkMapped, maps.nextServerMapped, maps.chunkMapped]).toEqual([false, false, false]);
  }, 180_000);

  it("keeps every module's map with SWITCHBOARD_SOURCE_MAPS=all", async () => {
    const maps = await sourceMaps({ SWITCHBOARD_SOURCE_MAPS: "all" });
    expect(maps.ownSources?.some((s) => s.endsWith("lib/start/index.ts"))).toBe(true);
    expect(maps.mapped.length).toBeGreaterThan(0);
    expect([maps.sdkMapped, maps.nextServerMapped, maps.chunkMapped]).toEqual([true, true, true]);
  }, 180_000);
});
