import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
// The overview and its pages of details, read as one document.
const ARCHITECTURE = ["docs/architecture.md", ...fs.readdirSync(path.join(ROOT, "docs/architecture")).sort().map((f) => `docs/architecture/${f}`)].map(read).join("\n");

const walk = (dir: string): string[] =>
  fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));

/** The keys of the `Runtime` interface in lib/core/runtime/index.ts, and of its `Pieces` when it keeps them apart. */
function runtimeKeys(): string[] {
  const source = read("lib/core/runtime/index.ts");
  const members = (name: string) => {
    const body = new RegExp(`interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1];
    return body === undefined ? null : [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]!);
  };
  const runtime = members("Runtime");
  if (!runtime) throw new Error("lib/core/runtime/index.ts has no Runtime interface");
  const pieces = members("Pieces");
  return pieces ? [...runtime.filter((key) => key !== "pieces"), ...pieces] : runtime;
}

describe("docs/architecture.md against the code", () => {
  it("names only keys the runtime has where it says something lives in the runtime", () => {
    const keys = runtimeKeys();
    expect(keys.length).toBeGreaterThan(10);
    const named = [...ARCHITECTURE.matchAll(/`(\w+)` in the\s+(?:process\s+)?runtime/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((key) => !keys.includes(key))).toEqual([]);
  });

  it("lists every runtime key, if it lists them (between <!-- runtime-keys:start --> and <!-- runtime-keys:end -->)", () => {
    const block = /<!-- runtime-keys:start -->([\s\S]*?)<!-- runtime-keys:end -->/.exec(ARCHITECTURE)?.[1];
    if (block === undefined) return;
    expect([...block.matchAll(/`(\w+)`/g)].map((m) => m[1]!).sort()).toEqual(runtimeKeys().sort());
  });

  it("names every file outside queries.ts that touches the database", () => {
    const at = ARCHITECTURE.indexOf("The database is touched in `queries.ts` files");
    expect(at).toBeGreaterThan(-1);
    const paragraph = ARCHITECTURE.slice(at, ARCHITECTURE.indexOf("Functions take one object argument", at));
    const documented = [...paragraph.matchAll(/`(lib\/[\w/.-]+\.ts)`/g)].map((m) => m[1]!).sort();
    // A value import of the Prisma client, the raw SQL helper, the driver or the bulk writer.
    const touches = /^import\s+(?!type\b)\{([^}]*)\}\s+from\s+["']@\/lib\/core\/db\/(client|bulk)["']/m;
    const actual = walk("lib")
      .filter((file) => !file.endsWith("queries.ts") && !file.startsWith(path.join("lib", "core", "db")))
      .filter((file) => {
        const m = touches.exec(read(file));
        return m && (m[2] === "bulk" || /\b(prisma|sql|driver)\b/.test(m[1]!.replace(/\btype \w+/g, "")));
      })
      .sort();
    expect(documented).toEqual(actual);
  });
});

describe("file paths the docs name", () => {
  it("exist", () => {
    const docs = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs"), { recursive: true }).map(String).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const missing = docs.flatMap((doc) =>
      [...read(doc).matchAll(/(?<![\w/.])((?:lib|components|app|tests|scripts|bench|agent)\/[\w./()[\]-]+\.(?:ts|tsx|sh|mjs))\b/g)]
        .map((m) => m[1]!)
        .filter((file) => !fs.existsSync(path.join(ROOT, file)))
        .map((file) => `${doc}: ${file}`),
    );
    expect(missing).toEqual([]);
  });
});

describe("environment variables the docs name", () => {
  it("are each read somewhere in the code", () => {
    const docs = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs"), { recursive: true }).map(String).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const named = new Set(docs.flatMap((doc) => [...read(doc).matchAll(/\bSWITCHBOARD_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0])));
    const code = ["lib", "app", "agent", "bench", "scripts", "tests"]
      .flatMap((dir) => walk(dir))
      .concat(["server.ts", "proxy.ts", "next.config.js", "prisma.config.ts", "playwright.config.ts", "vitest.config.ts", "scripts/build.sh", "scripts/start.sh", "scripts/test.sh"].filter((f) => fs.existsSync(path.join(ROOT, f))))
      .map(read)
      .join("\n");
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !new RegExp(`\\b${name}\\b`).test(code))).toEqual([]);
  });
});
