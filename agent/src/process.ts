import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { ServerConfig } from "./config";
import { createDecoder, encodeMessage, type Oversized } from "./framing";

const POSIX_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
const WINDOWS_ENV = ["APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"];
const TAIL_LINES = 20;

/** The environment a server gets: a few inherited variables (as the MCP SDK does) plus its config's `env`. */
export function serverEnv(config: Pick<ServerConfig, "env">, parent: Record<string, string | undefined> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of process.platform === "win32" ? WINDOWS_ENV : POSIX_ENV) {
    const value = parent[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...config.env };
}

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  stderrTail: string[];
  /** Set when the process never ran (e.g. command not found). */
  error?: string;
}

export interface ProcessEvents {
  message(message: unknown): void;
  stderr(chunk: string): void;
  /** Output that was dropped (not JSON, bad header); reported like stderr. */
  invalid(reason: string): void;
  /** A message over the cap that was dropped. */
  oversized(message: Oversized): void;
  exit(info: ExitInfo): void;
}

/** Timings of the spec's shutdown sequence: close stdin, wait, SIGTERM, wait, SIGKILL. */
export interface ShutdownTimings {
  stdinGraceMs: number;
  termGraceMs: number;
}

/** One MCP server process for one session. Spawned without a shell from the local config only. */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private tail: string[] = [];
  private partial = "";
  private exited = false;
  private exitedPromise: Promise<void>;
  private markExited!: () => void;

  constructor(
    readonly config: ServerConfig,
    private readonly maxBytes: number,
    private readonly on: ProcessEvents,
    private readonly timings: ShutdownTimings = { stdinGraceMs: 2000, termGraceMs: 2000 },
  ) {
    this.exitedPromise = new Promise((resolve) => (this.markExited = resolve));
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Starts the process; resolves with its pid, or null after reporting an exit with `error`. */
  start(): Promise<number | null> {
    const { command, args, cwd } = this.config;
    if (cwd && !fs.existsSync(cwd)) {
      this.finish({ code: null, signal: null, stderrTail: [], error: `working directory not found: ${cwd}` });
      return Promise.resolve(null);
    }
    const child = spawn(command, args, {
      shell: false,
      cwd,
      env: serverEnv(this.config) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.child = child;
    const decoder = createDecoder(this.config.framing, this.maxBytes, { message: this.on.message, invalid: this.on.invalid, oversized: this.on.oversized });
    child.stdout!.on("data", (chunk: Buffer) => decoder.push(chunk));
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => this.onStderr(chunk));
    child.stdin!.on("error", () => undefined); // EPIPE after the child died; the exit says why
    return new Promise((resolve) => {
      child.once("spawn", () => resolve(child.pid ?? null));
      child.once("error", (err: NodeJS.ErrnoException) => {
        if (child.pid !== undefined && err.code !== "ENOENT") return; // a kill() failure on a live child
        this.finish({ code: null, signal: null, stderrTail: this.tail, error: spawnError(command, err) });
        resolve(null);
      });
      child.once("close", (code, signal) => {
        if (this.partial) this.pushTail(this.partial);
        this.finish({ code, signal, stderrTail: this.tail });
      });
    });
  }

  /** Writes one message to stdin. Returns false when the pipe is full (wait for `drained()`). */
  send(message: unknown): boolean {
    const stdin = this.child?.stdin;
    if (!stdin || this.exited || stdin.destroyed || stdin.writableEnded) return true;
    return stdin.write(encodeMessage(message, this.config.framing));
  }

  /** Resolves when stdin can take more. */
  drained(): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writableNeedDrain || this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stdin.off("drain", done);
        stdin.off("close", done);
        resolve();
      };
      stdin.on("drain", done);
      stdin.on("close", done);
    });
  }

  /** Stops reading stdout (back-pressure toward the console) or resumes it. */
  setPaused(paused: boolean): void {
    const stdout = this.child?.stdout;
    if (!stdout || this.exited) return;
    if (paused) stdout.pause();
    else stdout.resume();
  }

  /** Per spec: close stdin, wait, SIGTERM, wait, SIGKILL. Resolves once the process is gone. */
  async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return this.exitedPromise;
    child.stdin?.end();
    if (await this.exitWithin(this.timings.stdinGraceMs)) return;
    child.kill("SIGTERM");
    if (await this.exitWithin(this.timings.termGraceMs)) return;
    child.kill("SIGKILL");
    await this.exitedPromise;
  }

  private async exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([this.exitedPromise.then(() => true), timeout]);
    clearTimeout(timer);
    return result;
  }

  private onStderr(chunk: string): void {
    this.on.stderr(chunk);
    const lines = (this.partial + chunk).split(/\r?\n/);
    this.partial = (lines.pop() ?? "").slice(-4096);
    for (const line of lines) this.pushTail(line);
  }

  private pushTail(line: string): void {
    this.tail.push(line.slice(0, 4096));
    if (this.tail.length > TAIL_LINES) this.tail.shift();
  }

  private finish(info: ExitInfo): void {
    if (this.exited) return;
    this.exited = true;
    this.markExited();
    this.on.exit(info);
  }
}

function spawnError(command: string, err: NodeJS.ErrnoException): string {
  if (err.code === "ENOENT") return `command not found: ${command} (check the "command" in your agent config and that it is on PATH)`;
  if (err.code === "EACCES") return `permission denied: ${command} is not executable`;
  return `could not start ${command}: ${err.message}`;
}
