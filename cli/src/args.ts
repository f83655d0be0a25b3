import { parseArgs } from "node:util";
import { parseLoad, type LoadCommand } from "./load-test";

const REPORTERS = ["pretty", "json", "junit"] as const;
export type Reporter = (typeof REPORTERS)[number];

/** A failure of the CLI itself (usage, token, console): exit code 2 with a one-line message. */
export class CliError extends Error {
  readonly exitCode = 2;
}

type Env = Record<string, string | undefined>;

export interface Connection {
  console: string;
  token: string;
}

export type Command =
  | { command: "help" }
  | { command: "version" }
  | {
      command: "run";
      collection: string;
      environment?: string;
      variables: Record<string, unknown>;
      stopOnFailure: boolean;
      reporter: Reporter;
      output?: string;
      timeoutMs: number;
      connection: Connection;
    }
  | { command: "export"; collection: string; output?: string; connection: Connection }
  | { command: "import"; file: string; name?: string; connection: Connection }
  | { command: "lint"; server: string; maxTokens?: number; reporter: Reporter; output?: string; connection: Connection }
  | { command: "mock-serve"; file: string; stdio: boolean; port: number; host: string }
  | LoadCommand;

/** `k=v`: the value is JSON when it parses as JSON (3, true, {"a":1}, "quoted"), else the text. */
export function parseVariable(pair: string): [string, unknown] {
  const eq = pair.indexOf("=");
  if (eq < 1) throw new CliError(`--var takes name=value, got "${pair}"`);
  const raw = pair.slice(eq + 1);
  try {
    return [pair.slice(0, eq), JSON.parse(raw)];
  } catch {
    return [pair.slice(0, eq), raw];
  }
}

function connection(values: { console?: string; token?: string }, env: Env): Connection {
  const url = values.console ?? env.SWITCHBOARD_URL;
  const token = values.token ?? env.SWITCHBOARD_TOKEN;
  if (!url) throw new CliError("no console: pass --console <url> or set SWITCHBOARD_URL");
  if (!token) throw new CliError("no API token: pass --token <token> or set SWITCHBOARD_TOKEN (create one in the console: Settings → API tokens)");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--console: "${url}" is not a URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CliError(`--console: "${url}" is not an http(s) URL`);
  return { console: parsed.origin + parsed.pathname.replace(/\/+$/, ""), token };
}

function parseReporter(value: string | undefined): Reporter {
  const reporter = (value ?? "pretty") as Reporter;
  if (!REPORTERS.includes(reporter)) throw new CliError(`--reporter: one of ${REPORTERS.join(", ")}, got "${value}"`);
  return reporter;
}

/** Reads the command line (and SWITCHBOARD_URL / SWITCHBOARD_TOKEN) into one command. */
export function parseCommand(argv: string[], env: Env = {}): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        console: { type: "string" },
        token: { type: "string" },
        env: { type: "string", short: "e" },
        var: { type: "string", multiple: true },
        "no-stop-on-failure": { type: "boolean" },
        all: { type: "boolean" },
        reporter: { type: "string", short: "r" },
        output: { type: "string", short: "o" },
        timeout: { type: "string" },
        name: { type: "string" },
        "max-tokens": { type: "string" },
        port: { type: "string", short: "p" },
        host: { type: "string" },
        stdio: { type: "boolean" },
        server: { type: "string" },
        tool: { type: "string" },
        args: { type: "string" },
        users: { type: "string" },
        duration: { type: "string" },
        count: { type: "string" },
        "ramp-up": { type: "string" },
        think: { type: "string" },
        p50: { type: "string" },
        p95: { type: "string" },
        p99: { type: "string" },
        errors: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    });
  } catch (err) {
    throw new CliError((err as Error).message.split("\n")[0]!);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === "help") return { command: "help" };
  if (values.version) return { command: "version" };
  if (!command) throw new CliError("no command: run `switchboard --help` for usage");
  const one = (what: string) => {
    if (rest.length !== 1) throw new CliError(`${command} takes one ${what}${rest.length ? `, got ${rest.length}` : ""}`);
    return rest[0]!;
  };
  switch (command) {
    case "run": {
      const collection = one("collection (id or name)");
      const reporter = parseReporter(values.reporter);
      const timeout = Number(values.timeout ?? 1800);
      if (!Number.isFinite(timeout) || timeout <= 0) throw new CliError(`--timeout: a number of seconds, got "${values.timeout}"`);
      return {
        command,
        collection,
        environment: values.env,
        variables: Object.fromEntries((values.var ?? []).map(parseVariable)),
        stopOnFailure: !(values["no-stop-on-failure"] || values.all),
        reporter,
        output: values.output,
        timeoutMs: timeout * 1000,
        connection: connection(values, env),
      };
    }
    case "export":
      return { command, collection: one("collection (id or name)"), output: values.output, connection: connection(values, env) };
    case "import":
      if (values.name !== undefined && !values.name.trim()) throw new CliError("--name: a collection name, got nothing");
      return { command, file: one("file"), name: values.name, connection: connection(values, env) };
    case "lint": {
      const server = one("server (name or id)");
      const max = values["max-tokens"];
      const maxTokens = max === undefined ? undefined : Number(max);
      if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 0)) throw new CliError(`--max-tokens: a whole number of tokens, got "${max}"`);
      return { command, server, maxTokens, reporter: parseReporter(values.reporter), output: values.output, connection: connection(values, env) };
    }
    case "mock":
      return mockServe(rest, values);
    case "load":
      return parseLoad(rest, values, parseReporter(values.reporter), connection(values, env));
    default:
      throw new CliError(`unknown command "${command}": run \`switchboard --help\` for usage`);
  }
}

/** `mock serve <file> (--port <n> [--host <h>] | --stdio)`: no console, no token. */
function mockServe(rest: string[], values: { port?: string; host?: string; stdio?: boolean }): Command {
  const [sub, file, ...extra] = rest;
  if (sub !== "serve") throw new CliError(`mock: the one subcommand is "serve" (switchboard mock serve <file> --port <n> | --stdio)${sub ? `, got "${sub}"` : ""}`);
  if (!file || extra.length) throw new CliError("mock serve takes one file (an exported mock)");
  if (values.stdio && (values.port !== undefined || values.host !== undefined)) throw new CliError("mock serve: --stdio or --port/--host, not both");
  if (!values.stdio && values.port === undefined) throw new CliError("mock serve: pass --port <n> (Streamable HTTP) or --stdio");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port: a port number (0 to 65535; 0 picks a free one), got "${values.port}"`);
  const host = values.host ?? "127.0.0.1";
  if (!host.trim()) throw new CliError("--host: an address to listen on, got nothing");
  return { command: "mock-serve", file, stdio: values.stdio === true, port, host };
}
