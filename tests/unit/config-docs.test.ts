import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentedDefault, VARIABLES } from "@/lib/core/config";
import { DEFAULT_MAX_MESSAGE_BYTES, HEARTBEAT_MS } from "@/lib/relay/protocol";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The rows of README's variable tables (`| \`NAME\` | default | meaning |`), one variable a row. */
function readmeRows(): { name: string; default: string }[] {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  return [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| (.*?) \| .* \|$/gm)].map((m) => ({ name: m[1]!, default: m[2]! }));
}

describe("README's variable tables and lib/core/config", () => {
  it("list the same variables", () => {
    const documented = readmeRows().map((r) => r.name);
    const known = Object.values(VARIABLES).map((v) => v.env);
    expect(documented.length).toBeGreaterThan(50);
    expect(new Set(documented).size, "a variable has two rows").toBe(documented.length);
    expect(documented.filter((name) => !known.includes(name)), "in README, unknown to lib/core/config/variables.ts").toEqual([]);
    expect(known.filter((name) => !documented.includes(name)), "in lib/core/config/variables.ts, missing from README").toEqual([]);
  });

  it("state each variable's default as lib/core/config applies it", () => {
    const rows = new Map(readmeRows().map((r) => [r.name, r.default]));
    const differ = Object.values(VARIABLES)
      .filter((v) => rows.get(v.env) !== documentedDefault(v))
      .map((v) => `${v.env}: README says ${rows.get(v.env)}, lib/core/config ${documentedDefault(v)}`);
    expect(differ).toEqual([]);
    // Defaults that live in the relay protocol (lib/core/config leaves them null), stated as numbers.
    expect(documentedDefault(VARIABLES.relayMaxBytes)).toBe(`\`${DEFAULT_MAX_MESSAGE_BYTES}\``);
    expect(documentedDefault(VARIABLES.relayHeartbeatMs)).toBe(`\`${HEARTBEAT_MS}\``);
  });

  // A variable renamed or dropped in lib/core/config must not live on in the prose.
  it("name in README and docs/ no console variable lib/core/config does not know", () => {
    const others = /^SWITCHBOARD_(AGENT_\w+|TOKEN|TEST\w*|BENCH_\w+)$/; // the agent's, the CLI's and snippets', the test runner's, the benchmarks'
    const known = Object.values(VARIABLES).map((v) => v.env);
    const files = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const stale = files.flatMap((f) =>
      [...fs.readFileSync(path.join(ROOT, f), "utf8").matchAll(/\bSWITCHBOARD_[A-Z0-9_]+/g)]
        .map((m) => m[0])
        .filter((name) => !known.includes(name) && !others.test(name) && !(name.endsWith("_") && known.some((k) => k.startsWith(name))))
        .map((name) => `${f}: ${name}`),
    );
    expect([...new Set(stale)]).toEqual([]);
  });

  it("has no combined rows a reader or this test could miss", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme.match(/^\| `[A-Z][A-Z0-9_]*`,.*$/gm) ?? []).toEqual([]);
  });
});
