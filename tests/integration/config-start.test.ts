import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { freePort } from "../support/servers";

const ROOT = path.resolve(import.meta.dirname, "../..");

// lib/core/config reads every variable once at start: a console with bad values never listens, and
// says which ones and why, all of them at once (not only the first it met).
it("stops a console started with two bad values, naming both", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-config-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    NODE_ENV: "production",
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    DATABASE_URL: `file:${path.join(dir, "test.db")}`,
    SWITCHBOARD_SECRET: "test-secret-for-switchboard",
    NEXT_TELEMETRY_DISABLED: "1",
    SWITCHBOARD_MAX_SERVERS: "lots",
    SWITCHBOARD_TRUST_PROXY: "yes",
  };
  const proc = spawn(process.execPath, ["--import", "tsx", "server.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  proc.stdout.on("data", (d) => (output += d));
  proc.stderr.on("data", (d) => (output += d));
  const [code] = (await once(proc, "exit")) as [number | null];
  fs.rmSync(dir, { recursive: true, force: true });

  expect(code, output).not.toBe(0);
  expect(output).toContain("Invalid configuration (2 variables)");
  expect(output).toContain('SWITCHBOARD_MAX_SERVERS: must be a whole number of at least 1 (got "lots")');
  expect(output).toContain('SWITCHBOARD_TRUST_PROXY: must be 1 or 0 (got "yes")');
  expect(output).not.toContain("Switchboard listening");
  // The list, not a stack trace into lib/core/config.
  expect(output).not.toMatch(/^\s+at /m);
}, 90_000);
