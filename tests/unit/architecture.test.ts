import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LIB = path.join(ROOT, "lib");

/**
 * lib/'s floors, lowest first: a floor may import its own and lower floors, never a higher one.
 * Floors that hold several domains are folders of them (lib/core/db); the others are one domain.
 */
const FLOORS = ["core", "mcp", "relay", "identity", "domains", "team", "watch", "api", "gateway", "start"] as const;
const GROUPS = new Set(["core", "identity", "domains", "team", "watch"]);

/** The domain a path inside lib/ belongs to ("core/db", "mcp"), or null for a file beside the domains. */
function domainAt(relative: string): string | null {
  const parts = relative.split(path.sep);
  const depth = GROUPS.has(parts[0]!) ? 2 : 1;
  return parts.length > depth ? parts.slice(0, depth).join("/") : null;
}
const floorOf = (domain: string) => FLOORS.indexOf(domain.split("/")[0] as (typeof FLOORS)[number]);

/** Every import from one lib/<domain> to another (type-only ones too when asked), with the file that makes it. */
function domainImports({ types = false }: { types?: boolean } = {}): { from: string; to: string; file: string }[] {
  const edges: { from: string; to: string; file: string }[] = [];
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
  for (const file of walk(LIB)) {
    const from = domainAt(path.relative(LIB, file));
    if (!from) continue; // lib/core/api-client.ts and the like are not domains
    const source = fs.readFileSync(file, "utf8");
    for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+["']([^"']+)["']/gm)) {
      if (m[1] && !types) continue;
      const spec = m[2]!;
      let target: string | null = null;
      if (spec.startsWith("@/lib/")) target = domainAt(`${spec.slice(6)}/x`.split("/").join(path.sep));
      else if (spec.startsWith(".")) {
        const resolved = path.relative(LIB, path.resolve(path.dirname(file), spec));
        if (!resolved.startsWith("..")) target = domainAt(`${resolved}${path.sep}x`);
      }
      if (target && target !== from && fs.existsSync(path.join(LIB, target)) && fs.statSync(path.join(LIB, target)).isDirectory()) {
        edges.push({ from, to: target, file: path.relative(ROOT, file) });
      }
    }
  }
  return edges;
}

/** Groups of domains that import each other, directly or around a loop (Tarjan's strongly connected components). */
function cycles(edges: { from: string; to: string }[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, new Set());
    if (!graph.has(to)) graph.set(to, new Set());
    graph.get(from)!.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const walkFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walkFiles(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
const domainOf = (file: string) => domainAt(path.relative(LIB, file)) ?? path.relative(LIB, file);

/** The lib/ files one file imports (value and type), resolved. */
function libImports(file: string): string[] {
  const out: string[] = [];
  for (const m of fs.readFileSync(file, "utf8").matchAll(/^(?:import|export)\s+(?:type\s+)?[^;]*?from\s+["']([^"']+)["']/gm)) {
    const spec = m[1]!;
    const base = spec.startsWith("@/lib/") ? path.join(LIB, spec.slice(6)) : spec.startsWith(".") ? path.resolve(path.dirname(file), spec) : null;
    const found = base && [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((f) => fs.existsSync(f));
    if (found && found.startsWith(LIB)) out.push(found);
  }
  return out;
}

/** Every lib/ file a file reaches through imports. */
function reach(file: string, seen = new Set<string>()): string[] {
  for (const next of libImports(file)) if (!seen.has(next)) (seen.add(next), reach(next, seen));
  return [...seen];
}

describe("architecture", () => {
  it("has no import cycles between lib domains (type-only imports aside)", () => {
    const edges = domainImports();
    const loops = cycles(edges);
    const explain = loops.map((group) => {
      const inside = edges.filter((e) => group.includes(e.from) && group.includes(e.to));
      return `${group.join(" ↔ ")}:\n${inside.map((e) => `  ${e.file} → lib/${e.to}`).join("\n")}`;
    });
    expect(explain).toEqual([]);
  });

  // The runtime no longer closes a circle of every domain; what remains is one group whose types
  // (ServerSecretRow, SessionInfo, MeDto) live beside values that import back. A ratchet: it may
  // shrink (then update this list), never grow.
  it("has no cycles through type imports but the one known group (the runtime names no domain's types)", () => {
    const loops = cycles(domainImports({ types: true }));
    expect(loops).toEqual([["domains/logs", "domains/server-oauth", "domains/servers", "domains/sessions", "identity/auth", "team/workspaces"]]);
  });

  it("has one composition root: server.ts imports only lib/start and lib/core/config (and Node), and nothing in lib/ imports lib/start", () => {
    const server = fs.readFileSync(path.join(ROOT, "server.ts"), "utf8");
    const specs = [...server.matchAll(/(?:from\s+|import\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(specs.filter((s) => !s.startsWith("node:") && s !== "./lib/start" && s !== "./lib/core/config")).toEqual([]);
    expect(domainImports({ types: true }).filter((e) => e.to === "start")).toEqual([]);
  });

  it("keeps the gateway a leaf: no domain imports it but the composition root", () => {
    const into = domainImports({ types: true }).filter((e) => e.to === "gateway" && e.from !== "start");
    expect(into.map((e) => e.file)).toEqual([]);
  });

  // The relay and lib/mcp sit below every domain: what they import from elsewhere must be a leaf
  // file (errors, the runtime, address classification, redaction), one that reaches no domain.
  it("keeps the relay and lib/mcp free of domains: they import only files that import no other domain", () => {
    const offenders: string[] = [];
    for (const from of ["relay", "mcp"]) {
      for (const file of walkFiles(path.join(LIB, from))) {
        for (const target of libImports(file).filter((t) => domainOf(t) !== from)) {
          const reached = reach(target).filter((t) => domainOf(t) !== domainOf(target));
          if (reached.length) offenders.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)} reaches ${path.relative(ROOT, reached[0]!)}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("holds the floors: no lib/ domain imports a domain of a higher floor (type-only imports aside)", () => {
    const up = domainImports().filter((e) => floorOf(e.to) > floorOf(e.from));
    expect(up.map((e) => `${e.file} (${e.from}) → lib/${e.to}`)).toEqual([]);
    expect(fs.readdirSync(LIB).filter((name) => !FLOORS.includes(name as (typeof FLOORS)[number]))).toEqual([]);
  });

  it("finds a cycle when there is one (the check itself works)", () => {
    expect(cycles([{ from: "a", to: "b" }, { from: "b", to: "c" }, { from: "c", to: "a" }, { from: "c", to: "d" }])).toEqual([["a", "b", "c"]]);
  });

  // Memos of pure computations, the same in every module graph; everything else is a runtime piece.
  const MEMOS = new Set([
    "lib/core/crypto/index.ts: let cachedKey", // the key derived from the secret
    "lib/domains/cards/index.ts: let validator", // a compiled JSON Schema
    "lib/domains/calls/search-index-pass.ts: const prepared", // statements per database handle (WeakMap)
    "lib/api/route.ts: const bodies", // a request's body, per request (WeakMap)
    "lib/core/timing/index.ts: const byRequest", // a request's Server-Timing stages, per request (WeakMap)
    "lib/core/db/client.ts: export const prisma", // the client; it connects on its first query
    "lib/core/json-schema/index.ts: const compiled", // a compiled validator per schema object (WeakMap)
    "lib/mcp/tasks.ts: const sessions", // the task extension's view of an SDK client, per client (WeakMap)
    "lib/core/config/index.ts: let cached", // the parsed environment (nothing writes process.env at run time)
    "lib/domains/policies/compile.ts: const cedar", // preparsed Cedar sets live in this graph's wasm instance: its slot registry
    "lib/domains/policies/match.ts: const regexCache", // compiled RE2 patterns (bounded)
  ]);

  it("creates no state at import time: module-level state is a lazily created runtime piece, or a listed memo", () => {
    const found: string[] = [];
    for (const f of fs.readdirSync(LIB, { recursive: true }).map(String).filter((f) => /\.tsx?$/.test(f) && !f.startsWith(path.join("core", "runtime")))) {
      const source = fs.readFileSync(path.join(LIB, f), "utf8");
      for (const m of source.matchAll(/^(export )?(let \w+|const (?![A-Z_]+\b)\w+(?=\s*(?::[^=]+)?=\s*(?:new (?:Map|Set|WeakMap)\b|piece\()))/gm)) found.push(`lib/${f}: ${m[0]}`);
    }
    expect(found.filter((entry) => !MEMOS.has(entry))).toEqual([]);
  });

  it("keeps process-wide state in the runtime only: no other module touches globalThis", () => {
    const files = [
      ...fs.readdirSync(LIB, { recursive: true }).map((f) => path.join(LIB, String(f))),
      path.join(ROOT, "server.ts"),
    ];
    const offenders = files.filter((f) => /\.tsx?$/.test(f) && !f.startsWith(path.join(LIB, "core", "runtime")) && /\bglobalThis\b/.test(fs.readFileSync(f, "utf8")));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("keeps zod out of the browser's first load: no door the client imports, component or page imports zod or a schemas.ts but by import()", () => {
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === "api" ? [] : walk(path.join(dir, e.name))) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
    const doors = fs.readdirSync(LIB).flatMap((d) => ["index.ts", "hooks.ts"].map((f) => path.join(LIB, d, f)).filter((f) => fs.existsSync(f)));
    const files = [...doors, ...walk(path.join(ROOT, "components")), ...walk(path.join(ROOT, "app"))];
    const offenders = files.filter((f) => /^(?:import|export)\s+(?!type\b)[^;]*?from\s+["'](?:zod|[^"']*\/schemas)["']/m.test(fs.readFileSync(f, "utf8")));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});

/** Every import between components/ files (static, type-only and import()), file to file. */
function componentImports(): { from: string; to: string }[] {
  const COMPONENTS = path.join(ROOT, "components");
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
  const files = new Set(walk(COMPONENTS));
  const resolve = (from: string, spec: string): string | undefined => {
    const base = spec.startsWith("@/components/") ? path.join(ROOT, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
    if (!base) return undefined;
    return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((f) => files.has(f));
  };
  const edges: { from: string; to: string }[] = [];
  for (const file of files) {
    for (const m of fs.readFileSync(file, "utf8").matchAll(/(?:^(?:import|export)\s+[^;]*?from\s+|\bimport\(\s*)["']([^"']+)["']/gm)) {
      const target = resolve(file, m[1]!);
      if (target) edges.push({ from: path.relative(ROOT, file), to: path.relative(ROOT, target) });
    }
  }
  return edges;
}

describe("components", () => {
  it("have no import cycles between files (type-only imports and import() included)", () => {
    const edges = componentImports();
    expect(edges.length).toBeGreaterThan(50);
    const loops = cycles(edges);
    const explain = loops.map((group) => edges.filter((e) => group.includes(e.from) && group.includes(e.to)).map((e) => `${e.from} → ${e.to}`).join("\n"));
    expect(explain).toEqual([]);
  });

  it("sees an import() as an edge (the interaction host loads its dialogs lazily)", () => {
    expect(componentImports()).toContainEqual({ from: "components/interactions/interaction-host.tsx", to: "components/interactions/sampling-dialog.tsx" });
  });
});
