import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { EVERYTHING, newAgentHome, runCli, startAgent, type RunningAgent } from "../integration/relay-support";
import { ConsolePage } from "../pages/console-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let agent: RunningAgent | undefined;

test.beforeAll(async () => {
  sb = await startConsole();
  const { api } = await setupOwner(sb.url);
  // An imported stdio entry that no agent lists: it waits.
  const imported = await api("POST", "/api/v1/servers/import", { config: JSON.stringify({ mcpServers: { notes: { command: "notes-mcp", args: ["stdio"] } } }) });
  expect(imported.body.created).toHaveLength(1);
});
test.afterAll(async () => {
  await agent?.stop("SIGKILL");
  await sb?.stop();
});

test("pair a real agent, call a stdio tool through it, see it go offline", async ({ page, context }) => {
  const ui = new ConsolePage(page, sb.url);
  const logs = () => `--- agent ---\n${agent?.output() ?? ""}\n--- console ---\n${sb.logs().slice(-4000)}`;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: sb.url });
  await ui.signIn(OWNER);

  await page.getByRole("navigation", { name: "Servers" }).getByRole("link", { name: /^notes/ }).click();
  const waiting = page.getByRole("status").filter({ hasText: "Waiting for an agent that lists notes" });
  await expect(waiting).toBeVisible();
  await waiting.getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  await expect(page.getByText("No agents yet — pair one to reach stdio servers on your machine")).toBeVisible();

  // The page shows the one-time command; Copy puts exactly that on the clipboard.
  const command = await ui.pairAgent();
  const match = command.match(/^npx -y (\S+)\/agent\.tgz pair ([A-Z0-9-]+) --console (\S+)$/);
  expect(match, command).not.toBeNull();
  const [, origin, code, consoleUrl] = match!;
  expect(origin).toBe(sb.url);
  expect(consoleUrl).toBe(sb.url);
  await expect(page.getByTestId("pairing-code")).toHaveText(code);
  await expect(page.getByRole("region", { name: "Pair an agent on your machine" })).toContainText("~/.config/switchboard/servers.json");
  await page.getByRole("button", { name: "Copy command" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

  // Run that command with the locally built agent (the same package /agent.tgz serves), then start it.
  const home = newAgentHome();
  const paired = await runCli(home, ["pair", code, "--console", consoleUrl, "--name", "laptop"]);
  expect(paired.code, paired.stdout + paired.stderr).toBe(0);
  agent = startAgent(home, { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } });

  const card = ui.agentCard("laptop");
  await expect(card.getByTestId("agent-status"), logs()).toHaveText("online", { timeout: 20_000 });
  const serverLink = card.getByRole("link", { name: "everything", exact: true });
  await expect(serverLink).toBeVisible();
  await expect(card.getByTestId("agent-server-status")).toHaveText("disconnected");
  await page.screenshot({ path: `${SHOTS}/agents.png`, fullPage: true });

  // The agent's server is browsed and called like any other server.
  await serverLink.click();
  await expect(page).toHaveURL(/\/servers\/[\w-]+$/);
  await expect(page.getByRole("heading", { name: "everything", level: 1 })).toBeVisible();
  await expect(page.getByTestId("via-agent")).toHaveText("via agent laptop");
  await ui.openTool("echo");
  await page.getByLabel("message", { exact: false }).first().fill("hello through the agent");
  await ui.runTool();
  await expect(page.getByTestId("call-status").first(), logs()).toHaveText(/ok/);
  await expect(ui.result()).toContainText("hello through the agent");
  await expect(page.getByTestId("server-status")).toHaveText("connected");
  await page.screenshot({ path: `${SHOTS}/agent-server-call.png` });
  const serverUrl = page.url();

  await ui.nav("History");
  const row = page.getByTestId("history-row").first();
  await expect(row).toContainText("echo");
  await expect(row).toContainText("everything");

  // The agent detail lists the server with its live stderr.
  await ui.openAgents();
  await card.getByRole("link", { name: "laptop", exact: true }).click();
  await expect(page.getByRole("heading", { name: "laptop", level: 1 })).toBeVisible();
  await expect(page.getByRole("article", { name: "everything" })).toBeVisible();

  // Stopping the agent takes it and its server offline.
  expect(await agent.stop()).toBe(0);
  await expect(page.getByTestId("agent-status")).toHaveText("offline", { timeout: 20_000 });
  await page.goto(serverUrl);
  await expect(page.getByTestId("server-status")).toHaveText("unreachable", { timeout: 20_000 });
  await expect(page.getByRole("status").filter({ hasText: "Agent offline" })).toContainText("laptop");

  // Revoking asks first, then the agent is listed as revoked.
  await ui.openAgents();
  await card.getByRole("button", { name: "Revoke laptop" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke agent" }).click();
  await expect(card.getByTestId("agent-status")).toHaveText("revoked");
  await expect(card.getByRole("button", { name: "Revoke laptop" })).toHaveCount(0);
});
