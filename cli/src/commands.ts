import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { RunDto } from "../../lib/domains/collections";
import { CliError, type Command } from "./args";
import { exportCollection, findCollection, findServer, getLint, getRun, importCollection, startRun } from "./console-api";
import { lintExitCode, lintJUnit, prettyLint, type LintVerdict } from "./lint-report";
import { exitCode, prettyHeader, prettySummary, progressPrinter, report } from "./reporters";

type Out = (text: string) => void;

function write(file: string, text: string) {
  try {
    fs.writeFileSync(file, text);
  } catch (err) {
    throw new CliError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/**
 * Starts a run and follows it to the end, polling with a short backoff. Progress lines go to
 * stdout unless stdout carries a json/junit report (no --output); the report goes to --output
 * or stdout. Returns the exit code: 0 passed, 1 failed.
 */
export async function runCollection(cmd: Extract<Command, { command: "run" }>, out: Out): Promise<number> {
  const { connection: conn } = cmd;
  const collection = await findCollection(conn, cmd.collection);
  let run = await startRun(conn, collection.id, { environment: cmd.environment, variables: cmd.variables, stopOnFailure: cmd.stopOnFailure });
  const showProgress = cmd.reporter === "pretty" || cmd.output !== undefined;
  const progress = progressPrinter((line) => showProgress && out(`${line}\n`));
  if (showProgress) out(`${prettyHeader(run, conn.console)}\n`);
  const deadline = Date.now() + cmd.timeoutMs;
  let delay = 100;
  while (run.status === "running") {
    progress(run);
    if (Date.now() > deadline) throw new CliError(`the run did not finish within ${cmd.timeoutMs / 1000} s: ${conn.console}/runs/${run.id}`);
    await sleep(delay);
    const before = doneCount(run);
    run = await getRun(conn, run.id);
    delay = doneCount(run) > before ? 100 : Math.min(1000, Math.round(delay * 1.5));
  }
  progress(run, true);
  if (cmd.output) write(cmd.output, report(run, cmd.reporter, conn.console));
  if (showProgress) out(`${prettySummary(run)}\n`);
  else out(report(run, cmd.reporter, conn.console));
  return exitCode(run);
}

const doneCount = (run: RunDto) => run.steps.filter((s) => s.status !== "pending" && s.status !== "running").length;

export async function exportCommand(cmd: Extract<Command, { command: "export" }>, out: Out): Promise<number> {
  const collection = await findCollection(cmd.connection, cmd.collection);
  const text = `${JSON.stringify(await exportCollection(cmd.connection, collection.id), null, 2)}\n`;
  if (cmd.output) {
    write(cmd.output, text);
    out(`Exported "${collection.name}" (${collection.steps.length} steps) to ${cmd.output}\n`);
  } else out(text);
  return 0;
}

export async function importCommand(cmd: Extract<Command, { command: "import" }>, out: Out): Promise<number> {
  let file: unknown;
  try {
    file = JSON.parse(fs.readFileSync(cmd.file, "utf8"));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code ? `cannot read ${cmd.file}: ${code}` : `${cmd.file} is not JSON: ${(err as Error).message}`);
  }
  const collection = await importCollection(cmd.connection, file, cmd.name);
  out(`Imported "${collection.name}" (${collection.steps.length} steps) as ${collection.id}: ${cmd.connection.console}/collections/${collection.id}\n`);
  return 0;
}

/** Lints a server's latest snapshot; exit 1 on an error finding or past --max-tokens. The report goes to --output or stdout. */
export async function lintCommand(cmd: Extract<Command, { command: "lint" }>, out: Out): Promise<number> {
  const server = await findServer(cmd.connection, cmd.server);
  const verdict: LintVerdict = { server: server.name, report: await getLint(cmd.connection, server.id), maxTokens: cmd.maxTokens };
  const text = cmd.reporter === "junit" ? lintJUnit(verdict) : cmd.reporter === "json" ? `${JSON.stringify(verdict.report, null, 2)}\n` : prettyLint(verdict);
  if (cmd.output) {
    write(cmd.output, text);
    if (cmd.reporter !== "pretty") out(prettyLint(verdict));
  } else out(text);
  return lintExitCode(verdict);
}
