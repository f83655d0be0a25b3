import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadTestDto } from "../../lib/domains/load-tests";
import { escapeXml } from "../../lib/domains/collections/junit";
import { CliError, type Connection, type Reporter } from "./args";
import { findCollection, findServer, request } from "./console-api";

/** What `switchboard load` must see for the test to pass: latency ceilings (ms) and an error share (0–1). */
export interface Thresholds {
  p50?: number;
  p95?: number;
  p99?: number;
  errors?: number;
}

export interface LoadCommand {
  command: "load";
  collection?: string;
  call?: { server: string; tool: string; arguments: Record<string, unknown> };
  users: number;
  durationSeconds?: number;
  count?: number;
  rampUpSeconds: number;
  thinkMs: number;
  thresholds: Thresholds;
  reporter: Reporter;
  output?: string;
  connection: Connection;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** "200ms", "1.5s", "2m" (a bare number: `bare`'s unit) → milliseconds. */
export function parseDuration(text: string | undefined, option: string, bare: "ms" | "s"): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(text ?? "");
  if (!m) throw new CliError(`${option}: a duration such as 200ms, 30s or 2m, got "${text ?? ""}"`);
  return Number(m[1]) * UNITS[m[2] ?? bare]!;
}

/** "1%", "0.5%" → a share (0.01, 0.005). */
export function parsePercent(text: string, option: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (!m || Number(m[1]) > 100) throw new CliError(`${option}: a percentage such as 1% or 0.5%, got "${text}"`);
  return Number(m[1]) / 100;
}

type Values = Record<string, string | boolean | string[] | undefined>;
const str = (values: Values, key: string) => values[key] as string | undefined;

/** `load <collection> | --server S --tool T [--args JSON]`, users, duration or count, ramp-up, think, thresholds. */
export function parseLoad(rest: string[], values: Values, reporter: Reporter, connection: Connection): LoadCommand {
  const server = str(values, "server");
  const tool = str(values, "tool");
  if (rest.length > 1) throw new CliError(`load takes one collection, got ${rest.length}`);
  if (rest.length === (server !== undefined || tool !== undefined ? 1 : 0)) throw new CliError("load: give a collection, or --server and --tool (not both)");
  let call: LoadCommand["call"];
  if (!rest.length) {
    if (!server || !tool) throw new CliError("load: --server and --tool go together");
    let args: unknown = {};
    const raw = str(values, "args");
    try {
      if (raw !== undefined) args = JSON.parse(raw);
    } catch {
      throw new CliError(`--args: not JSON: ${raw}`);
    }
    if (!args || typeof args !== "object" || Array.isArray(args)) throw new CliError("--args: a JSON object");
    call = { server, tool, arguments: args as Record<string, unknown> };
  }
  const users = Number(str(values, "users") ?? 1);
  if (!Number.isInteger(users) || users < 1) throw new CliError(`--users: a whole number of at least 1, got "${str(values, "users")}"`);
  const duration = str(values, "duration");
  const countText = str(values, "count");
  if ((duration === undefined) === (countText === undefined)) throw new CliError("load: give --duration or --count (one of them)");
  const count = countText === undefined ? undefined : Number(countText);
  if (count !== undefined && (!Number.isInteger(count) || count < 1)) throw new CliError(`--count: a whole number of calls, got "${countText}"`);
  const thresholds: Thresholds = {};
  for (const p of ["p50", "p95", "p99"] as const) if (str(values, p) !== undefined) thresholds[p] = parseDuration(str(values, p), `--${p}`, "ms");
  if (str(values, "errors") !== undefined) thresholds.errors = parsePercent(str(values, "errors")!, "--errors");
  return {
    command: "load",
    ...(call ? { call } : { collection: rest[0]! }),
    users,
    ...(duration === undefined ? { count } : { durationSeconds: parseDuration(duration, "--duration", "s") / 1000 }),
    rampUpSeconds: str(values, "ramp-up") === undefined ? 0 : parseDuration(str(values, "ramp-up"), "--ramp-up", "s") / 1000,
    thinkMs: str(values, "think") === undefined ? 0 : parseDuration(str(values, "think"), "--think", "ms"),
    thresholds,
    reporter,
    output: str(values, "output"),
    connection,
  };
}

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

const errorShare = (t: LoadTestDto) => Object.values(t.errors).reduce((a, b) => a + b, 0) / Math.max(1, t.calls);

/** Each threshold judged against the test's figures, and whether the test ran to its end. */
export function judge(t: LoadTestDto, thresholds: Thresholds): Check[] {
  const checks: Check[] = [{ name: "completed", passed: t.status === "completed", detail: `status ${t.status}${t.error ? `: ${t.error}` : ""}` }];
  for (const p of ["p50", "p95", "p99"] as const) {
    const limit = thresholds[p];
    if (limit === undefined) continue;
    const value = t[p];
    checks.push({ name: `${p} <= ${limit} ms`, passed: value !== null && value <= limit, detail: `${p} ${value ?? "–"} ms` });
  }
  if (thresholds.errors !== undefined) {
    const share = errorShare(t);
    checks.push({ name: `errors <= ${+(thresholds.errors * 100).toFixed(4)}%`, passed: share <= thresholds.errors, detail: `errors ${+(share * 100).toFixed(3)}% of ${t.calls} calls` });
  }
  return checks;
}

export function loadJUnit(t: LoadTestDto, checks: Check[]): string {
  const failures = checks.filter((c) => !c.passed).length;
  const cases = checks.map((c) => {
    const name = escapeXml(c.name);
    const body = c.passed ? "" : `<failure message="${escapeXml(c.detail)}">${escapeXml(c.detail)}</failure>`;
    return `    <testcase classname="load-test" name="${name}">${body}</testcase>`;
  });
  const suite = `  <testsuite name="${escapeXml(`load test ${t.label}`)}" tests="${checks.length}" failures="${failures}" errors="0">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suite}\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`;
}

export function prettyLoad(t: LoadTestDto, checks: Check[]): string {
  const lines = [`Load test "${t.label}": ${t.status}, ${t.calls} calls, ${t.callsPerSecond ?? "–"} calls/s, p50 ${t.p50 ?? "–"} ms, p95 ${t.p95 ?? "–"} ms, p99 ${t.p99 ?? "–"} ms`];
  for (const s of t.steps) lines.push(`  ${s.index + 1}. ${s.label}: ${s.calls} calls, ${s.errors} errors, p50 ${s.p50 ?? "–"} ms, p95 ${s.p95 ?? "–"} ms, p99 ${s.p99 ?? "–"} ms`);
  const kinds = Object.entries(t.errors);
  if (kinds.length) lines.push(`  errors: ${kinds.map(([k, n]) => `${k} ${n}`).join(", ")}`);
  for (const c of checks) lines.push(`  ${c.passed ? "✓" : "✗"} ${c.name} (${c.detail})`);
  lines.push(checks.every((c) => c.passed) ? "PASSED" : "FAILED");
  return `${lines.join("\n")}\n`;
}

/** Starts the load test, follows it to its end and judges it: 0 every threshold met, 1 one missed (or the test did not complete). */
export async function loadCommand(cmd: LoadCommand, out: (text: string) => void): Promise<number> {
  const conn = cmd.connection;
  const target = cmd.call
    ? { call: { serverId: (await findServer(conn, cmd.call.server)).id, tool: cmd.call.tool, arguments: cmd.call.arguments } }
    : { collectionId: (await findCollection(conn, cmd.collection!)).id };
  const body = { ...target, users: cmd.users, durationSeconds: cmd.durationSeconds, count: cmd.count, rampUpSeconds: cmd.rampUpSeconds, thinkMs: cmd.thinkMs };
  const started = await request<{ loadTest?: LoadTestDto; error?: { message?: string } }>(conn, "POST", "/api/v1/load-tests", body, [409, 422, 400, 413]);
  if (!started.body?.loadTest) throw new CliError(`could not start the load test: ${started.body?.error?.message ?? `HTTP ${started.status}`}`);
  let test = started.body.loadTest;
  const showProgress = cmd.reporter === "pretty" || cmd.output !== undefined;
  if (showProgress) out(`Load test ${conn.console}/load-tests/${test.id}: ${test.label}\n`);
  const deadline = Date.now() + ((cmd.durationSeconds ?? 600) + cmd.rampUpSeconds + 120) * 1000;
  while (test.status === "running") {
    if (Date.now() > deadline) throw new CliError(`the load test did not end in time: ${conn.console}/load-tests/${test.id}`);
    await sleep(1000);
    const res = await request<{ loadTest?: LoadTestDto }>(conn, "GET", `/api/v1/load-tests/${encodeURIComponent(test.id)}`);
    if (!res.body?.loadTest) throw new CliError(`load test ${test.id} not found`);
    test = res.body.loadTest;
    if (showProgress && test.status === "running") out(`  ${test.calls} calls, ${test.callsPerSecond ?? "–"} calls/s, p95 ${test.p95 ?? "–"} ms\n`);
  }
  const checks = judge(test, cmd.thresholds);
  const report = cmd.reporter === "junit" ? loadJUnit(test, checks) : cmd.reporter === "json" ? `${JSON.stringify({ loadTest: test, checks }, null, 2)}\n` : prettyLoad(test, checks);
  if (cmd.output) {
    try {
      fs.writeFileSync(cmd.output, report);
    } catch (err) {
      throw new CliError(`cannot write ${cmd.output}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  if (showProgress) out(prettyLoad(test, checks));
  else out(report);
  return checks.every((c) => c.passed) ? 0 : 1;
}
