import { describe, expect, it } from "vitest";
import { ServerProcess, serverEnv, type ExitInfo } from "@/agent/src/process";
import type { ServerConfig } from "@/agent/src/config";

const node = process.execPath;
const config = (script: string, extra: Partial<ServerConfig> = {}): ServerConfig => ({ name: "t", command: node, args: ["-e", script], env: {}, framing: "newline", ...extra });

function run(cfg: ServerConfig, timings = { stdinGraceMs: 200, termGraceMs: 200 }) {
  const messages: unknown[] = [];
  const stderr: string[] = [];
  let exit: ExitInfo | undefined;
  const proc = new ServerProcess(cfg, 1024 * 1024, { message: (m) => messages.push(m), stderr: (c) => stderr.push(c), invalid: () => undefined, oversized: () => undefined, exit: (e) => (exit = e) }, timings);
  return { proc, messages, stderr, exit: () => exit };
}

describe("agent server processes", () => {
  it("inherits only HOME, LOGNAME, PATH, SHELL, TERM, USER plus the config's env", () => {
    const env = serverEnv({ env: { API_KEY: "k" } }, { HOME: "/h", PATH: "/bin", SECRET: "s", AWS_SECRET_ACCESS_KEY: "x", BASH_FUNC: "() { :; }", SHELL: "() {x}" });
    expect(env).toEqual({ HOME: "/h", PATH: "/bin", API_KEY: "k" });
  });

  it("does not interpret arguments with a shell", async () => {
    const { proc, messages, exit: exitOf } = run(config("process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'argv',params:process.argv.slice(1)})+'\\n')", { args: ["-e", "process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'argv',params:process.argv.slice(1)})+'\\n')", "$(id)", "a;b", "`x`"] }));
    await proc.start();
    // Its one line, before it is asked to stop (a loaded machine may take a while to boot a node).
    while (!messages.length && !exitOf()) await new Promise((r) => setImmediate(r));
    await proc.shutdown();
    expect(messages).toEqual([{ jsonrpc: "2.0", method: "argv", params: ["$(id)", "a;b", "`x`"] }]);
  });

  it("shuts down politely: closing stdin is enough for a well-behaved server", async () => {
    const { proc, exit, stderr } = run(config("process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); console.error('up')"));
    await proc.start();
    while (!stderr.join("").includes("up")) await new Promise((r) => setImmediate(r));
    await proc.shutdown();
    // Exit code 0 and no signal: stdin's end stopped it, before any SIGTERM.
    expect(exit()).toMatchObject({ code: 0, signal: null });
  });

  it("escalates to SIGTERM, then SIGKILL, for a server that ignores both", async () => {
    const { proc, exit, stderr } = run(config("process.on('SIGTERM', () => console.error('ignoring SIGTERM')); process.stdin.on('end', () => {}); process.stdin.resume(); setInterval(() => {}, 1000); console.error('up')"));
    await proc.start();
    await new Promise((r) => setTimeout(r, 200));
    await proc.shutdown();
    expect(exit()).toMatchObject({ signal: "SIGKILL" });
    expect(stderr.join("")).toContain("ignoring SIGTERM");
    expect(exit()!.stderrTail).toContain("ignoring SIGTERM");
  });

  it("reports a missing command without hanging", async () => {
    const { proc, exit } = run({ name: "m", command: "switchboard-no-such-command-xyz", args: [], env: {}, framing: "newline" });
    expect(await proc.start()).toBeNull();
    expect(exit()?.error).toMatch(/^command not found: switchboard-no-such-command-xyz/);
  });
});
