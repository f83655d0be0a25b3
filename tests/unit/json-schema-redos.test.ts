import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateArguments } from "@/lib/core/json-schema";

const ROOT = path.resolve(import.meta.dirname, "../..");
const catastrophic = { type: "string", pattern: "(a+)+$" };

/**
 * Validates in a child process killed after `timeoutMs`: a backtracking regex holds its thread
 * and no timer in this one could stop it, so the old engine fails this test instead of hanging it.
 */
function runElsewhere({ script, input, timeoutMs }: { script: string; input: unknown; timeoutMs: number }) {
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `import { readFileSync } from "node:fs";\nconst input = readFileSync(0, "utf8");\n${script}`], { cwd: ROOT, input: JSON.stringify(input), timeout: timeoutMs, encoding: "utf8" });
  if (!child.signal && child.status !== 0) throw new Error(`the child failed: ${child.error?.message ?? child.stderr}`);
  return { signal: child.signal, output: child.signal ? null : (JSON.parse(child.stdout) as unknown) };
}

function validateElsewhere({ schema, args, timeoutMs }: { schema: unknown; args: unknown; timeoutMs: number }) {
  const script = `import { validateArguments } from "./lib/core/json-schema/index.ts";
const [schema, args] = JSON.parse(input);
process.stdout.write(JSON.stringify(validateArguments(schema, args)));`;
  const ran = runElsewhere({ script, input: [schema, args], timeoutMs });
  return { signal: ran.signal, errors: ran.output };
}

describe("JSON Schema patterns run in linear time", () => {
  it("checks (a+)+$ against 10,000 a's and a '!' (backtracking would never finish)", () => {
    const ran = validateElsewhere({ schema: catastrophic, args: `${"a".repeat(10_000)}!`, timeoutMs: 25_000 });
    expect(ran.signal).toBeNull();
    expect(ran.errors).toEqual([{ path: "/", message: 'must match pattern "(a+)+$"' }]);
  });

  it("still enforces patterns, patternProperties and \\u escapes", () => {
    expect(validateArguments(catastrophic, "aaaa")).toEqual([]);
    expect(validateArguments({ type: "string", pattern: "^\\u00e9+$" }, "éé")).toEqual([]);
    expect(validateArguments({ type: "string", pattern: "^\\u00e9+$" }, "e")).toEqual([{ path: "/", message: 'must match pattern "^\\u00e9+$"' }]);
    const keyed = { type: "object", patternProperties: { "^(x+)+$": { type: "number" } }, additionalProperties: false };
    expect(validateArguments(keyed, { xxx: 1 })).toEqual([]);
    expect(validateArguments(keyed, { xxx: "1" })).toEqual([{ path: "/xxx", message: "must be number" }]);
    const ran = validateElsewhere({ schema: keyed, args: { [`${"x".repeat(10_000)}!`]: 1 }, timeoutMs: 25_000 });
    expect(ran.signal).toBeNull();
    expect(ran.errors).toEqual([{ path: "/", message: "must NOT have additional properties" }]);
  });

  it("leaves a pattern RE2 cannot run (look-around, back-references) to the server, and checks the rest", () => {
    for (const pattern of ["^(?=a)a+$", "^(a)\\1$"]) {
      const schema = { type: "object", properties: { q: { type: "string", pattern }, n: { type: "number" } }, required: ["q"] };
      expect(validateArguments(schema, { q: "zzz" })).toEqual([]);
      expect(validateArguments(schema, { q: "zzz", n: "1" })).toEqual([{ path: "/n", message: "must be number" }]);
      expect(validateArguments(schema, {})).toEqual([{ path: "/q", message: "must have required property 'q'" }]);
    }
  });
});

describe("collection placeholders are read in linear time", () => {
  it("interpolates a string of '{{' and 20,000 spaces (the old pattern backtracked for hours)", () => {
    const script = `import { interpolate } from "./lib/domains/collections/variables.ts";
const [text] = JSON.parse(input);
process.stdout.write(JSON.stringify(interpolate({ text, name: "{{  who }}", mixed: "hi {{ who}}!" }, { variables: { who: "ada" }, steps: [], servers: {} })));`;
    const text = `{{${" ".repeat(20_000)}`;
    const ran = runElsewhere({ script, input: [text], timeoutMs: 25_000 });
    expect(ran.signal).toBeNull();
    expect(ran.output).toEqual({ text, name: "ada", mixed: "hi ada!" });
  });
});

describe("OAuth traces find tokens in linear time", () => {
  it("redacts a URL of 300,000 'eyJ's (the old pattern retried from each one, for hours) and still finds a JWT", () => {
    const script = `import { redactUrl } from "./lib/mcp/oauth-trace.ts";
const [urls] = JSON.parse(input);
process.stdout.write(JSON.stringify(urls.map((url) => redactUrl(url))));`;
    const hostile = `https://as.test/${"eyJ".repeat(300_000)}`;
    const ran = runElsewhere({ script, input: [[hostile, "https://as.test/cb?x=eyJhbGciOi.eyJzdWIi.c2ln&y=1"]], timeoutMs: 25_000 });
    expect(ran.signal).toBeNull();
    expect(ran.output).toEqual([hostile, "https://as.test/cb?x=[redacted]&y=1"]);
  });
});
