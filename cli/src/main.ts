import { CliError, parseCommand } from "./args";
import { exportCommand, importCommand, lintCommand, runCollection } from "./commands";
import { mockServeCommand } from "./mock-serve";
import { loadCommand } from "./load-test";

declare const CLI_VERSION: string;
const VERSION = typeof CLI_VERSION === "string" ? CLI_VERSION : "0.0.0-dev";

const HELP = `switchboard ${VERSION}
Runs Switchboard collections from scripts and CI, lints servers' definitions with a token
budget, moves collections in and out of a console, and serves mock servers exported from it.

Usage:
  switchboard run <collection> [options]
      Run a collection (its id or exact name) and follow it step by step.
      --env, -e <name>          The environment to run in (its values and server aliases).
      --var <name=value>        A run-time variable, repeatable; the value is JSON when it
                                parses as JSON (3, true, {"a":1}), else text.
      --all, --no-stop-on-failure
                                Run every step; by default the run stops at the first failure.
      --reporter, -r <format>   pretty (default), json (the final run) or junit (JUnit XML).
      --output, -o <file>       Write the report to a file (progress still prints).
      --timeout <seconds>       Give up waiting after this long (default 1800).
  switchboard export <collection> [--output <file>]
      Write the collection as one JSON file (secrets are never included).
  switchboard import <file> [--name <name>]
      Create a collection from an exported file (--name: under another name).
  switchboard lint <server> [--max-tokens <n>] [--reporter <format>] [--output <file>]
      Lint a server's definitions (its name or id; its latest capability snapshot) and
      count their tokens. --max-tokens: fail past this many tokens. --reporter: pretty
      (default), json (the console's report) or junit (a testcase per finding and one
      for the budget).
  switchboard load <collection> | --server <server> --tool <tool> [--args <json>] [options]
      Load-test a collection (its id or exact name) or one tool call with many virtual
      users, follow it live, and judge it (admins only).
      --users <n>               Virtual users, each its own MCP session (default 1).
      --duration <time>         How long, e.g. 30s or 2m; or --count <n> calls in all.
      --ramp-up <time>          Spread the users' starts over this long (e.g. 5s).
      --think <time>            Pause between a user's calls (e.g. 100ms).
      --p50, --p95, --p99 <time>
                                Fail when that percentile is above this (e.g. 200ms).
      --errors <percent>        Fail when more than this share of calls failed (e.g. 1%).
      --reporter, -r <format>   pretty (default), json or junit (a testcase per threshold,
                                and one for the test running to its end).
      --output, -o <file>       Write the report to a file.
  switchboard mock serve <file> (--port <n> [--host <address>] | --stdio)
      Serve a mock exported from the console (GET /api/v1/mocks/:id/export) with no
      console: Streamable HTTP at http://127.0.0.1:<n>/mcp (--host to listen elsewhere;
      --port 0 picks a free port), or over stdin/stdout with --stdio. It answers the
      lists and each recorded call as recorded; an unrecorded call gets a JSON-RPC error.

Connection (every command but mock serve):
  --console <url>   The console, e.g. https://switchboard.example.com (or SWITCHBOARD_URL).
  --token <token>   An API token of the workspace (or SWITCHBOARD_TOKEN).

Exit codes: 0 the run passed, 1 it failed (an assertion failed or a step errored; for lint:
an error finding or more tokens than --max-tokens; for load: a threshold missed or the test
did not complete), 2 the CLI could not do its job (usage,
token, unknown collection or server, console unreachable).

Options: --help, -h   Show this help.   --version   Print the version.`;

/** Runs one command line; returns the exit code. Errors of the CLI itself print one line. */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  try {
    const cmd = parseCommand(argv, env);
    const out = (text: string) => void process.stdout.write(text);
    switch (cmd.command) {
      case "help":
        out(`${HELP}\n`);
        return 0;
      case "version":
        out(`${VERSION}\n`);
        return 0;
      case "run":
        return await runCollection(cmd, out);
      case "export":
        return await exportCommand(cmd, out);
      case "import":
        return await importCommand(cmd, out);
      case "lint":
        return await lintCommand(cmd, out);
      case "load":
        return await loadCommand(cmd, out);
      case "mock-serve":
        return await mockServeCommand(cmd, out, (text) => void process.stderr.write(text));
    }
  } catch (err) {
    process.stderr.write(`switchboard: ${err instanceof CliError ? err.message : `unexpected error: ${(err as Error).stack ?? err}`}\n`);
    return 2;
  }
}
