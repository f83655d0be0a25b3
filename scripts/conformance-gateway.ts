/**
 * The suite's server scenarios against server-everything, directly and through a gateway endpoint
 * of the console (/mcp/<workspace>/<server>): the gateway must pass at least what the server
 * passes on its own. The suite's CLI cannot send a header, so a loopback shim adds the gateway
 * token to every request it forwards to the console.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import { startEverything } from "../tests/support/servers";

type Api = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: any }>;

export interface ServerOutcome {
  version: string;
  scenario: string;
  direct: boolean;
  gateway: boolean;
}

export async function gatewayServerScenarios(opts: { consoleUrl: string; api: Api; node22: string; versions: { version: string; cli: string }[] }): Promise<ServerOutcome[]> {
  // One server for each column, so that what one run leaves behind (toggles, subscriptions) the
  // other sees the same way: both go through the same sequence of runs.
  const [direct, behind] = await Promise.all([startEverything("streamableHttp"), startEverything("streamableHttp")]);
  const shim = http.createServer();
  try {
    const { api } = opts;
    const serverId = (await api("POST", "/api/v1/servers", { name: "conformance-everything", url: behind.url })).body.server.id;
    const { path } = (await api("PUT", `/api/v1/servers/${serverId}/exposure`, { enabled: true })).body.exposure;
    const token = (await api("POST", "/api/v1/tokens", { name: "conformance", scopes: ["gateway"] })).body.secret as string;
    const target = new URL(opts.consoleUrl);
    shim.on("request", (req, res) => {
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host, authorization: `Bearer ${token}` } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => shim.listen(0, "127.0.0.1", resolve));
    const viaGateway = `http://127.0.0.1:${(shim.address() as { port: number }).port}${path}`;
    const outcomes: ServerOutcome[] = [];
    for (const { version, cli } of opts.versions) {
      const alone = await results(opts.node22, cli, direct.url);
      const gateway = await results(opts.node22, cli, viaGateway);
      for (const scenario of new Set([...alone.keys(), ...gateway.keys()])) {
        outcomes.push({ version, scenario, direct: alone.get(scenario) ?? false, gateway: gateway.get(scenario) ?? false });
      }
    }
    return outcomes;
  } finally {
    shim.close();
    await Promise.all([direct.stop(), behind.stop()]);
  }
}

/**
 * Scenario → passed, from the CLI's summary lines ("✓ name: 2 passed, 0 failed"). Asynchronous:
 * the shim serving the CLI runs in this process.
 */
function results(node22: string, cli: string, url: string): Promise<Map<string, boolean>> {
  const child = spawn(node22, [cli, "server", "--url", url], { stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve) =>
    child.once("close", () => {
      const map = new Map<string, boolean>();
      for (const m of out.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gm)) map.set(m[1]!, m[3] === "0");
      resolve(map);
    }),
  );
}

export function serverReport(outcomes: ServerOutcome[]): string[] {
  const lines = [
    "## Server scenarios through the gateway",
    "",
    "The suite's server scenarios against `@modelcontextprotocol/server-everything` (Streamable HTTP) directly, and",
    "through the console's gateway endpoint for it (an MCP host's view: `/mcp/<workspace>/<server>` with a gateway-scoped",
    "token, added by a loopback shim because the suite's CLI sends no headers). Many scenarios call tools of the suite's",
    "own reference server that server-everything does not have: they fail in both columns. The run fails when the gateway",
    "fails a scenario the server passes directly.",
    "",
  ];
  for (const version of [...new Set(outcomes.map((o) => o.version))]) {
    const rows = outcomes.filter((o) => o.version === version);
    const count = (k: "direct" | "gateway") => `${rows.filter((o) => o[k]).length}/${rows.length}`;
    lines.push(`### @modelcontextprotocol/conformance ${version}`, "", `Directly ${count("direct")} · through the gateway ${count("gateway")}`, "");
    lines.push("| Scenario | Directly | Through the gateway |", "| --- | --- | --- |");
    for (const o of rows) lines.push(`| \`${o.scenario}\` | ${o.direct ? "pass" : "fail"} | ${o.gateway ? "pass" : o.direct ? "**fail**" : "fail"} |`);
    lines.push("");
  }
  return lines;
}
