import os from "node:os";
import type { PolicyRequest, PolicyRule, PolicySubject } from "@/lib/domains/policies";
import { compileSet, evaluate, type CompiledSet } from "@/lib/domains/policies/engine";
import { machine, percentile, writeSection } from "./report";

const CALLS = Number(process.env.BENCH_POLICY_CALLS ?? 20_000);
const ROUNDS = 10;

/**
 * Policy evaluation per call (issue 42: ≤ 0.1 ms p50 added with 100 rules): what decide() does on
 * each call between two version checks (lib/domains/policies/decide.ts reads the set's version at
 * most every 2 s per workspace): the JS pre-filter by server and name, then Cedar on the rules that
 * could match. 100 rules over 10 servers (exact names, globs, principals, argument conditions with
 * RE2 and numbers), calls to 60 tools with arguments, against the same calls with no rules (the
 * workspace default decides without Cedar), interleaved in rounds. In process: no HTTP, no database.
 */
export async function benchPolicy(): Promise<void> {
  const rules: PolicyRule[] = Array.from({ length: 100 }, (_, i) => {
    const rule: PolicyRule = { id: `r${i}`, name: `rule ${i}`, effect: (["allow", "deny", "approve"] as const)[i % 3]!, enabled: true, servers: [`srv${i % 10}`] };
    if (i % 4 === 0) rule.tools = [`tool_${i % 60}`];
    else if (i % 4 === 1) rule.tools = [`read_${i % 7}_*`];
    else if (i % 4 === 2) rule.tools = [`tool_${i % 60}`, `write_*`];
    if (i % 5 === 0) rule.principals = { roles: ["member", "viewer"] };
    if (i % 5 === 1) rule.principals = { members: [`user${i % 3}`], groups: ["ops"] };
    if (i % 3 === 0) rule.when = [{ path: "/path", op: "matches", value: "^/etc/" }];
    if (i % 3 === 1) rule.when = [{ path: "/limit", op: "gt", value: 100 }, { path: "/mode", op: "in", value: ["a", "b"] }];
    return rule;
  });
  const withRules = compileSet({ workspaceId: "bench", version: 1, policyDefault: "allow", rules });
  const noRules = compileSet({ workspaceId: "bench", version: 2, policyDefault: "allow", rules: [] });
  const subject: PolicySubject = { workspaceId: "bench", role: "member", userId: "user1", tokenId: null, clientId: null, groups: ["dev"] };
  const names = [...Array.from({ length: 40 }, (_, i) => `tool_${i}`), ...Array.from({ length: 20 }, (_, i) => `read_${i % 7}_file${i}`)];
  const requests: PolicyRequest[] = Array.from({ length: 1000 }, (_, i) => ({
    subject,
    serverId: `srv${i % 10}`,
    kind: "tool",
    name: names[(i * 7) % names.length]!,
    arguments: { path: i % 2 ? "/etc/passwd" : "/tmp/x", limit: i % 300, mode: i % 4 ? "a" : "c", payload: { nested: [1, 2, 3] } },
  }));

  // decide() on a cached set with no rules returns at once; with rules it is evaluate().
  const run = (set: CompiledSet, r: PolicyRequest) => (set.enabled.length ? evaluate(set, r) : set.policyDefault);
  const time = (set: CompiledSet, count: number, offset: number) => {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const r = requests[(offset + i) % requests.length]!;
      const t = performance.now();
      run(set, r);
      out.push(performance.now() - t);
    }
    return out;
  };
  time(withRules, 5000, 0);
  time(noRules, 5000, 0);
  const samples = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const per = CALLS / ROUNDS;
    const order = round % 2 ? (["without", "with"] as const) : (["with", "without"] as const);
    for (const which of order) samples[which].push(...time(which === "with" ? withRules : noRules, per, round * per));
  }
  const p = (xs: number[], q: number) => percentile(xs, q) * 1000;
  const added = p(samples.with, 50) - p(samples.without, 50);
  const body = [
    `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(", ")}. ${CALLS.toLocaleString("en")} decisions each, interleaved in ${ROUNDS} rounds after a warm-up (bench/policy.ts: 100 rules over 10 servers, 60 tools, RE2 and numeric conditions; Cedar 4.13 through @cedar-policy/cedar-wasm).`,
    "",
    "| rule set | p50 µs | p95 µs | p99 µs |",
    "| --- | ---: | ---: | ---: |",
    `| 100 rules | ${p(samples.with, 50).toFixed(1)} | ${p(samples.with, 95).toFixed(1)} | ${p(samples.with, 99).toFixed(1)} |`,
    `| no rules | ${p(samples.without, 50).toFixed(1)} | ${p(samples.without, 95).toFixed(1)} | ${p(samples.without, 99).toFixed(1)} |`,
    "",
    `Added per call at p50 with 100 rules: ${(added / 1000).toFixed(3)} ms (target ≤ 0.1 ms: ${added <= 100 ? "met" : "NOT met"}). Besides, decide() reads the rule set's version once per 2 s per workspace (one indexed row).`,
  ].join("\n");
  console.log(body);
  if (process.env.BENCH_POLICY_WRITE !== "0") writeSection("Policy evaluation (issue 42)", body);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPolicy();
