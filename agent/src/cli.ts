import { parseArgs } from "node:util";
import { loadConfig, defaultConfigFile } from "./config";
import { credentialsFile, deleteCredentials, readCredentials, writeCredentials } from "./credentials";
import { exchangeCode, fetchSelf, revokeSelf } from "./console-api";
import { agentCommand } from "./command";
import { AgentLink } from "./link";
import { log, setLogLevel } from "./log";
import { DEFAULT_GRACE_MS, DEFAULT_MAX_MESSAGE_BYTES, DEAD_AFTER_MS, HEARTBEAT_MS } from "../../lib/relay/protocol";
import { AgentTracer } from "./tracing";

declare const AGENT_VERSION: string;
const VERSION = typeof AGENT_VERSION === "string" ? AGENT_VERSION : "0.0.0-dev";

const HELP = `switchboard-agent ${VERSION}
Lets a Switchboard console use the MCP servers that run on this machine (stdio servers),
without exposing them to the internet. The agent connects out to the console; the console can
only ask for servers listed in your local config, by name.

Usage:
  switchboard-agent pair <code> --console <url> [--name <name>]
      Pair this machine with a console. Get the code in the console: Agents → "Pair an agent".
  switchboard-agent start [--config <file>] [--grace <seconds>] [--max-message-bytes <n>]
      Connect and serve the servers in the config (default ${defaultConfigFile()}).
      If the link drops, running servers are kept for --grace seconds (default 60).
      The config has the usual shape (a Claude Desktop config works as is):
        { "mcpServers": { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"] } } }
      Optional per server: "env" (added to a minimal environment), "cwd",
      and "framing": "content-length" for servers that use Content-Length headers.
  switchboard-agent status      Show the pairing and the servers the console will see.
  switchboard-agent unpair      Revoke this agent in the console and forget its token.

Options:
  --verbose, -v   Log more (to stderr).
  --help, -h      Show this help.
  --version       Print the version.

Files: credentials in ${credentialsFile()} (mode 0600; set SWITCHBOARD_AGENT_HOME to move them).`;

function fail(message: string): never {
  log.error(message);
  process.exit(1);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      console: { type: "string" },
      name: { type: "string" },
      config: { type: "string", short: "c" },
      grace: { type: "string" },
      "max-message-bytes": { type: "string" },
      verbose: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
  });
  if (values.verbose) setLogLevel("debug");
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command || command === "help") {
    console.log(HELP);
    return command || values.help ? 0 : 1;
  }
  switch (command) {
    case "pair": {
      const code = rest[0];
      const consoleUrl = values.console ?? process.env.SWITCHBOARD_CONSOLE_URL;
      if (!code || !consoleUrl) fail("Usage: switchboard-agent pair <code> --console <url>");
      const creds = await exchangeCode(consoleUrl, code, values.name, VERSION);
      writeCredentials(creds);
      console.log(`Paired as "${creds.name}" with ${creds.consoleUrl} (workspace ${creds.workspace}).`);
      console.log(`Credentials saved to ${credentialsFile()}. Now run: ${agentCommand(creds.consoleUrl)} start`);
      return 0;
    }
    case "start":
      return start(values.config, values.grace, values["max-message-bytes"]);
    case "status": {
      const creds = readCredentials();
      if (!creds) {
        console.log(`Not paired. Run: ${agentCommand(process.env.SWITCHBOARD_CONSOLE_URL)} pair <code> --console <url>`);
        return 1;
      }
      console.log(`Paired as "${creds.name}" (${creds.agentId}) with ${creds.consoleUrl} since ${creds.pairedAt}`);
      const self = await fetchSelf(creds).catch((err: Error) => ({ status: 0, body: { error: { message: err.message } } }));
      if (self.status === 200) console.log(`Console: token valid; agent ${self.body.agent.status}`);
      else if (self.status === 401) console.log("Console: this agent's token was revoked; pair again");
      else console.log(`Console: unreachable (${self.body?.error?.message ?? `HTTP ${self.status}`})`);
      try {
        const config = loadConfig(values.config ?? defaultConfigFile());
        console.log(`Config ${config.file}: ${[...config.servers.keys()].join(", ") || "no servers"}`);
        for (const s of config.skipped) console.log(`  skipped ${s.name}: ${s.reason}`);
      } catch (err) {
        console.log(`Config: ${(err as Error).message}`);
      }
      return 0;
    }
    case "unpair": {
      const creds = readCredentials();
      if (!creds) {
        console.log("Not paired.");
        return 0;
      }
      const res = await revokeSelf(creds).catch(() => ({ status: 0 }));
      deleteCredentials();
      console.log(res.status === 204 || res.status === 401 ? "Unpaired; the console revoked this agent." : "Forgot the credentials locally; the console could not be reached, revoke the agent there.");
      return 0;
    }
    default:
      fail(`Unknown command "${command}". Run switchboard-agent --help`);
  }
}

async function start(configFile: string | undefined, grace: string | undefined, maxBytes: string | undefined): Promise<number> {
  const credentials = readCredentials();
  if (!credentials) fail("Not paired yet. In the console open Agents → \"Pair an agent\" and run the command it shows.");
  const config = loadConfig(configFile ?? defaultConfigFile());
  for (const s of config.skipped) log.warn(`skipped "${s.name}": ${s.reason}`);
  if (config.servers.size === 0) log.warn(`no runnable servers in ${config.file}`);
  const heartbeatMs = Number(process.env.SWITCHBOARD_AGENT_HEARTBEAT_MS) || HEARTBEAT_MS;
  const tracer = AgentTracer.fromEnv(process.env, VERSION);
  const link = new AgentLink({
    tracer,
    credentials,
    servers: config.servers,
    version: VERSION,
    maxMessageBytes: Number(maxBytes) || DEFAULT_MAX_MESSAGE_BYTES,
    graceMs: grace !== undefined ? Number(grace) * 1000 : DEFAULT_GRACE_MS,
    heartbeatMs,
    deadAfterMs: heartbeatMs === HEARTBEAT_MS ? DEAD_AFTER_MS : heartbeatMs * 3,
    backoffMs: Number(process.env.SWITCHBOARD_AGENT_BACKOFF_MS) || undefined,
  });
  const stop = () => void link.stop("agent stopped");
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  link.start();
  const result = await link.done;
  await tracer?.shutdown();
  return result.code;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => fail(err.message),
);
