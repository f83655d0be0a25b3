import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { EVERYTHING, newAgentHome } from "../integration/relay-support";
import { ConsolePage } from "../pages/console-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };

let sb: ConsoleHandle;
let agent: ChildProcess | undefined;

test.beforeAll(async () => {
  sb = await startConsole();
  await setupOwner(sb.url);
});
test.afterAll(async () => {
  if (agent?.pid) process.kill(-agent.pid, "SIGKILL");
  await sb?.stop();
});

/** A shell on "a machine with only Node and npm": its own home and npm cache, nothing of this repo on PATH. */
function shell(home: string, command: string) {
  const PATH = [path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
  const env = { HOME: home, PATH, npm_config_cache: path.join(home, ".npm"), npm_config_update_notifier: "false" } as unknown as NodeJS.ProcessEnv;
  return spawn("bash", ["-c", command], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
}

function run(home: string, command: string): Promise<{ code: number | null; output: string }> {
  const child = shell(home, command);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

test("the pairing and start commands the console prints work exactly as printed", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/agents`);
  const pairCommand = await ui.pairAgent();
  const startCommand = (await page.getByTestId("pairing-start-command").textContent()) ?? "";
  expect(startCommand).toContain("start");

  // The config the instructions point at, in the place they name.
  const home = newAgentHome();
  fs.mkdirSync(path.join(home, ".config/switchboard"), { recursive: true });
  fs.writeFileSync(path.join(home, ".config/switchboard/servers.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } }));

  const paired = await run(home, pairCommand);
  expect(paired.code, paired.output).toBe(0);
  expect(fs.existsSync(path.join(home, ".config/switchboard/agent.json"))).toBe(true);
  // What the agent says to run next is the console's start command, not a name that is not on PATH.
  expect(paired.output).toContain(`Now run: ${startCommand.trim()}`);

  agent = shell(home, startCommand);
  let output = "";
  agent.stdout!.on("data", (d) => (output += d));
  agent.stderr!.on("data", (d) => (output += d));
  await page.reload();
  await expect(page.getByTestId("agent-status").first(), output).toHaveText("online", { timeout: 60_000 });
});
