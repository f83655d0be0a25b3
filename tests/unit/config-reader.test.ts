import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Reads of `process.env` that stay outside lib/core/config, each with its reason. An entry is
 * "file: expression"; any other read in the app's code fails the test below.
 */
const ALLOWED = new Map<string, string>();

/** NODE_ENV is Node's and Next's (Next inlines it in every bundle at build), not the console's. */
const ANYWHERE = new Set(["process.env.NODE_ENV"]);

/** Each read of `process.env` in a source: `process.env.X`, `process.env[...]`, `process["env"]`, `{ env } = process`, or a bare `process.env`. */
function envReads(source: string, fileName = "file.ts"): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const isProcess = (node: ts.Node) => ts.isIdentifier(node) && node.text === "process";
  const visit = (node: ts.Node): void => {
    const env =
      (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === "env") ||
      (ts.isElementAccessExpression(node) && isProcess(node.expression) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === "env");
    if (env) {
      const parent = node.parent;
      const whole = (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node ? parent : node;
      found.push(whole.getText(file).replace(/\s+/g, ""));
    } else if (ts.isVariableDeclaration(node) && node.initializer && isProcess(node.initializer) && ts.isObjectBindingPattern(node.name)) {
      if (node.name.elements.some((e) => (e.propertyName ?? e.name).getText(file) === "env")) found.push("{env}=process");
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const walk = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : []));

/** The app's code: lib/, app/, components/, and the root files Next and Node load (server.ts, proxy.ts, instrumentation*). */
function appFiles(): string[] {
  const roots = fs.readdirSync(ROOT).filter((f) => /^(server|proxy|instrumentation[\w-]*)\.(ts|js|mjs)$/.test(f));
  return [...["lib", "app", "components"].flatMap((d) => walk(path.join(ROOT, d))), ...roots.map((f) => path.join(ROOT, f))].map((f) => path.relative(ROOT, f));
}

describe("the one config reader", () => {
  it("finds every form of read (the check itself works)", () => {
    const source = [
      "const a = process.env.FOO;",
      'const b = process.env["BAR"];',
      'const c = process["env"].BAZ;',
      "const { env } = process;",
      "const all = { ...process.env };",
      'const text = "process.env.IN_A_STRING";',
      "// process.env.IN_A_COMMENT",
    ].join("\n");
    expect(envReads(source)).toEqual(["process.env.FOO", 'process.env["BAR"]', 'process["env"].BAZ', "{env}=process", "process.env"]);
  });

  it("reads process.env only in lib/core/config (and in the listed exceptions)", () => {
    const files = appFiles();
    expect(files).toContain("lib/core/config/index.ts");
    const reads = files.filter((f) => !f.startsWith("lib/core/config/")).flatMap((f) => envReads(fs.readFileSync(path.join(ROOT, f), "utf8"), f).map((read) => `${f}: ${read}`));
    const offenders = reads.filter((read) => !ALLOWED.has(read) && !ANYWHERE.has(read.split(": ")[1]!));
    expect(offenders, "read it through config() from @/lib/core/config (add the variable to lib/core/config/variables.ts)").toEqual([]);
  });

  it("lists no exception that no longer happens", () => {
    const reads = new Set(appFiles().flatMap((f) => envReads(fs.readFileSync(path.join(ROOT, f), "utf8"), f).map((read) => `${f}: ${read}`)));
    expect([...ALLOWED.keys()].filter((entry) => !reads.has(entry))).toEqual([]);
  });
});
