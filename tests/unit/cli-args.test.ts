import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliError, parseCommand, parseVariable } from "../../cli/src/args";
import { findCollection, request } from "../../cli/src/console-api";
import { judge, loadJUnit, parseDuration, parsePercent } from "../../cli/src/load-test";

const conn = ["--console", "http://127.0.0.1:3000/", "--token", "sb_t"];

function usage(argv: string[], env: Record<string, string> = {}): string {
  try {
    parseCommand(argv, env);
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error("expected a usage error");
}

describe("parseCommand", () => {
  it("reads a lint command with its budget, and refuses a budget that is not a whole number", () => {
    expect(parseCommand(["lint", "weather", "--max-tokens", "8000", "-r", "junit", "-o", "lint.xml", ...conn])).toEqual({
      command: "lint",
      server: "weather",
      maxTokens: 8000,
      reporter: "junit",
      output: "lint.xml",
      connection: { console: "http://127.0.0.1:3000", token: "sb_t" },
    });
    expect(parseCommand(["lint", "weather", ...conn])).toMatchObject({ maxTokens: undefined, reporter: "pretty" });
    expect(usage(["lint", "weather", "--max-tokens", "8k", ...conn])).toBe('--max-tokens: a whole number of tokens, got "8k"');
    expect(usage(["lint", ...conn])).toBe("lint takes one server (name or id)");
  });

  it("reads a full run command", () => {
    const cmd = parseCommand(["run", "Smoke tests", "--env", "staging", "--var", "n=3", "--var", "city=Oslo", "--var", 'o={"a":[1]}', "--all", "-r", "junit", "-o", "out.xml", "--timeout", "30", ...conn]);
    expect(cmd).toEqual({
      command: "run",
      collection: "Smoke tests",
      environment: "staging",
      variables: { n: 3, city: "Oslo", o: { a: [1] } },
      stopOnFailure: false,
      reporter: "junit",
      output: "out.xml",
      timeoutMs: 30_000,
      connection: { console: "http://127.0.0.1:3000", token: "sb_t" },
    });
  });

  it("defaults: stop on failure, pretty, connection from the environment", () => {
    const cmd = parseCommand(["run", "col_1"], { SWITCHBOARD_URL: "https://sb.example.com/base/", SWITCHBOARD_TOKEN: "env-token" });
    expect(cmd).toMatchObject({ stopOnFailure: true, reporter: "pretty", variables: {}, connection: { console: "https://sb.example.com/base", token: "env-token" } });
    expect(parseCommand(["run", "c", "--no-stop-on-failure", ...conn])).toMatchObject({ stopOnFailure: false });
    expect(parseCommand(["run", "c", ...conn], { SWITCHBOARD_TOKEN: "env" })).toMatchObject({ connection: { token: "sb_t" } });
  });

  it("reads export and import", () => {
    expect(parseCommand(["export", "Smoke", "--output", "smoke.json", ...conn])).toMatchObject({ command: "export", collection: "Smoke", output: "smoke.json" });
    expect(parseCommand(["import", "smoke.json", ...conn])).toMatchObject({ command: "import", file: "smoke.json" });
    expect(parseCommand(["import", "smoke.json", "--name", "smoke (2)", ...conn])).toMatchObject({ command: "import", name: "smoke (2)" });
    expect(usage(["import", "smoke.json", "--name", " ", ...conn])).toMatch(/--name/);
  });

  it("help and version win over everything else", () => {
    expect(parseCommand(["--help"])).toEqual({ command: "help" });
    expect(parseCommand(["run", "x", "-h"])).toEqual({ command: "help" });
    expect(parseCommand(["help"])).toEqual({ command: "help" });
    expect(parseCommand(["--version"])).toEqual({ command: "version" });
  });

  it("refuses bad usage with one clear line", () => {
    expect(usage([])).toMatch(/no command/);
    expect(usage(["fly", ...conn])).toMatch(/unknown command "fly"/);
    expect(usage(["run", ...conn])).toMatch(/run takes one collection/);
    expect(usage(["run", "a", "b", ...conn])).toMatch(/got 2/);
    expect(usage(["run", "a", "--reporter", "tap", ...conn])).toMatch(/--reporter: one of pretty, json, junit/);
    expect(usage(["run", "a", "--frobnicate", ...conn])).toMatch(/Unknown option '--frobnicate'/);
    expect(usage(["run", "a", "--token", "t"])).toMatch(/no console/);
    expect(usage(["run", "a", "--console", "http://x"])).toMatch(/no API token/);
    expect(usage(["run", "a", "--console", "ftp://x", "--token", "t"])).toMatch(/not an http\(s\) URL/);
    expect(usage(["run", "a", "--timeout", "soon", ...conn])).toMatch(/--timeout/);
    expect(usage(["run", "a", "--var", "novalue", ...conn])).toMatch(/--var takes name=value/);
  });
});

describe("parseVariable", () => {
  it.each([
    ["a=1", ["a", 1]],
    ["a=true", ["a", true]],
    ["a=null", ["a", null]],
    ['a="3"', ["a", "3"]],
    ["a=007", ["a", "007"]],
    ["a=x=y", ["a", "x=y"]],
    ["a=", ["a", ""]],
  ] as const)("%s", (pair, expected) => {
    expect(parseVariable(pair)).toEqual(expected);
  });
});

describe("the console client's failures", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/html") return void res.writeHead(200, { "content-type": "text/html" }).end("<html>");
      if (req.headers.authorization !== "Bearer good") return void res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "unauthorized", message: "Invalid API token" } }));
      if (req.url?.startsWith("/api/v1/collections?name=")) return void res.end(JSON.stringify({ items: [{ id: "c1", name: "Smoke" }, { id: "c2", name: "Smoke 2" }] }));
      if (req.url === "/api/v1/collections/c2") return void res.end(JSON.stringify({ collection: { id: "c2", name: "Smoke 2" } }));
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "not_found", message: "Collection not found" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const fails = async (p: Promise<unknown>) => {
    const err = await p.then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    return (err as Error).message;
  };

  it("a refused token, a console that is not there, a page that is not the API", async () => {
    expect(await fails(request({ console: base, token: "bad" }, "GET", "/api/v1/collections"))).toBe("the console refused the API token (401): Invalid API token");
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await fails(request({ console: `http://127.0.0.1:${port}`, token: "good" }, "GET", "/api/v1/collections"))).toBe(`cannot reach the console at http://127.0.0.1:${port}: ECONNREFUSED`);
    expect(await fails(request({ console: base, token: "good" }, "GET", "/html"))).toMatch(/did not answer GET \/html as a Switchboard console \(HTTP 200, text\/html\)/);
  });

  it("finds a collection by exact name, then by id, else says so", async () => {
    const good = { console: base, token: "good" };
    expect(await findCollection(good, "Smoke")).toEqual({ id: "c1", name: "Smoke" });
    expect(await findCollection(good, "c2")).toEqual({ id: "c2", name: "Smoke 2" });
    expect(await fails(findCollection(good, "Nope"))).toBe('no collection "Nope" in this workspace (give its exact name or its id)');
  });
});

describe("switchboard load", () => {
  it("reads a collection's load test with its thresholds", () => {
    const cmd = parseCommand(["load", "Smoke", "--users", "16", "--duration", "30s", "--ramp-up", "5s", "--think", "100ms", "--p95", "200ms", "--p99", "1.5s", "--errors", "1%", "-r", "junit", "-o", "load.xml", ...conn]);
    expect(cmd).toEqual({
      command: "load",
      collection: "Smoke",
      users: 16,
      durationSeconds: 30,
      rampUpSeconds: 5,
      thinkMs: 100,
      thresholds: { p95: 200, p99: 1500, errors: 0.01 },
      reporter: "junit",
      output: "load.xml",
      connection: { console: "http://127.0.0.1:3000", token: "sb_t" },
    });
  });

  it("reads one call with JSON arguments and a count", () => {
    const cmd = parseCommand(["load", "--server", "everything", "--tool", "echo", "--args", '{"message":"hi"}', "--users", "4", "--count", "1000", "--p50", "20", ...conn]);
    expect(cmd).toMatchObject({ call: { server: "everything", tool: "echo", arguments: { message: "hi" } }, users: 4, count: 1000, rampUpSeconds: 0, thinkMs: 0, thresholds: { p50: 20 } });
  });

  it("refuses what it cannot read", () => {
    expect(usage(["load", ...conn, "--users", "2", "--duration", "10s"])).toBe("load: give a collection, or --server and --tool (not both)");
    expect(usage(["load", "Smoke", "--server", "s", "--tool", "t", "--duration", "1s", ...conn])).toBe("load: give a collection, or --server and --tool (not both)");
    expect(usage(["load", "--server", "s", "--duration", "1s", ...conn])).toBe("load: --server and --tool go together");
    expect(usage(["load", "Smoke", "--users", "two", "--duration", "1s", ...conn])).toMatch(/^--users: a whole number/);
    expect(usage(["load", "Smoke", "--duration", "1s", "--count", "5", ...conn])).toBe("load: give --duration or --count (one of them)");
    expect(usage(["load", "Smoke", "--duration", "soon", ...conn])).toBe('--duration: a duration such as 200ms, 30s or 2m, got "soon"');
    expect(usage(["load", "Smoke", "--duration=-5s", ...conn])).toMatch(/^--duration: a duration/);
    expect(usage(["load", "Smoke", "--duration", "5s", "--p95", "fast", ...conn])).toMatch(/^--p95: a duration/);
    expect(usage(["load", "Smoke", "--duration", "5s", "--errors", "1", ...conn])).toBe('--errors: a percentage such as 1% or 0.5%, got "1"');
    expect(usage(["load", "Smoke", "--duration", "5s", "--errors", "101%", ...conn])).toMatch(/^--errors: a percentage/);
    expect(usage(["load", "--server", "s", "--tool", "t", "--args", "[1]", "--count", "1", ...conn])).toBe("--args: a JSON object");
    expect(usage(["load", "--server", "s", "--tool", "t", "--args", "{", "--count", "1", ...conn])).toBe("--args: not JSON: {");
  });
});

describe("load test thresholds", () => {
  const test = { label: "echo", status: "completed", calls: 1000, errors: { timeout: 5, protocol: 5 }, p50: 10, p95: 150, p99: 400, steps: [], error: null } as never;

  it("pass and fail as set, one JUnit testcase per threshold and one for completing", () => {
    const checks = judge(test, { p95: 200, p99: 300, errors: 0.01 });
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ["completed", true],
      ["p95 <= 200 ms", true],
      ["p99 <= 300 ms", false],
      ["errors <= 1%", true],
    ]);
    expect(judge(test, { errors: 0.005 })[1]).toMatchObject({ passed: false, detail: "errors 1% of 1000 calls" });
    expect(judge({ ...(test as object), status: "cancelled" } as never, {})[0]!.passed).toBe(false);
    const xml = loadJUnit(test, checks);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('tests="4" failures="1"');
    expect(xml).toContain('<testcase classname="load-test" name="p99 &lt;= 300 ms"><failure message="p99 400 ms">');
  });

  it("reads durations and percentages", () => {
    expect(parseDuration("250ms", "--p95", "ms")).toBe(250);
    expect(parseDuration("2", "--p95", "ms")).toBe(2);
    expect(parseDuration("1.5s", "--p95", "ms")).toBe(1500);
    expect(parseDuration("2m", "--duration", "s")).toBe(120_000);
    expect(parseDuration("30", "--duration", "s")).toBe(30_000);
    expect(parsePercent("0.5%", "--errors")).toBe(0.005);
  });
});
