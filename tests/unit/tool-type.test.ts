import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const walk = (dir: string): string[] =>
  fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));

describe("a tool's type", () => {
  it("is declared once (lib/mcp's ToolDefinition): no other type in lib/ or components/ declares a tool's inputSchema", () => {
    // A property declaration `inputSchema?: …;` / `inputSchema: …;` in an interface or type literal (not an object value or a parameter).
    const declares = /^\s*(?:readonly\s+)?inputSchema\??:\s*[A-Z{][\w<>, {}]*;/m;
    const files = [...walk("lib"), ...walk("components")].filter((f) => f !== path.join("lib", "mcp", "types.ts") && declares.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
    expect(files).toEqual([]);
    expect(declares.test(fs.readFileSync(path.join(ROOT, "lib/mcp/types.ts"), "utf8"))).toBe(true);
  });
});
