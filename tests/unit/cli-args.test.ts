import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliError, parseCommand, parseVariable } from "../../cli/src/args";
import { findCollection, request } from "../../cli/src/console-api";

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
