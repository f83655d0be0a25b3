import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { InteractionsPage } from "../pages/interactions-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let trips: RunningServer;
let serverId: string;
let tripsId: string;
/** A local page standing in for the server's link: it counts every request that reaches it. */
let target: http.Server;
let targetHost: string;
const hits: string[] = [];

test.beforeAll(async () => {
  target = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/html" }).end("<title>consent</title><p>Consent page</p>");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  [sb, everything, trips] = await Promise.all([startConsole(), startEverything("streamableHttp"), startFixture("sampling-tools-server.ts")]);
  const { api } = await setupOwner(sb.url);
  serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 60_000 })).body.server.id;
  tripsId = (await api("POST", "/api/v1/servers", { name: "trips", url: trips.url, timeoutMs: 60_000 })).body.server.id;
  expect((await api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBeLessThan(300);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop(), trips?.stop(), new Promise((r) => target?.close(r))]);
});

async function open(page: Page, id = serverId) {
  const ui = new InteractionsPage(page, sb.url);
  await ui.signIn(OWNER);
  await ui.openServer(id);
  return ui;
}

test("elicitation form: the dialog names the server and the fields; Accept and Decline reach the server", async ({ page }) => {
  const ui = await open(page);
  await ui.start("trigger-elicitation-request");
  const dialog = ui.ask("A server asks for information");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Asked by server everything");
  await expect(dialog).toContainText("Please provide inputs for the following fields:");
  await expect(dialog.getByLabel("String", { exact: true })).toBeFocused();
  await expect(dialog.getByLabel("String with default", { exact: true })).toHaveValue("It was a dark and stormy night.");
  await expect(dialog.getByLabel("Integer", { exact: true })).toHaveValue("42");
  await expect(dialog.getByLabel("Titled Single Select Enum", { exact: true })).toHaveValue("hero-1");
  await expect(dialog.getByRole("group", { name: "Untitled Multiple Select Enum" }).getByRole("checkbox", { name: "Guitar" })).toBeChecked();

  // The name is required: Accept without it shows the error and keeps the dialog.
  await dialog.getByRole("button", { name: "Accept" }).click();
  await expect(dialog.getByText("Required")).toBeVisible();
  await dialog.getByLabel("String", { exact: true }).fill("Ada Lovelace");
  await dialog.getByLabel("String with email format", { exact: true }).fill("ada@example.com");
  await dialog.getByLabel("Integer", { exact: true }).fill("7");
  await dialog.getByRole("checkbox", { name: /Boolean/ }).check();
  await page.screenshot({ path: `${SHOTS}/elicitation.png` });
  await dialog.getByRole("button", { name: "Accept" }).click();
  await expect(dialog).toHaveCount(0);
  const result = await ui.finished();
  await expect(result).toContainText("Name: Ada Lovelace");
  await expect(result).toContainText("Email: ada@example.com");
  await expect(result).toContainText("Favorite Integer: 7");
  await expect(result).toContainText("Agreed to terms: true");

  await ui.start("trigger-elicitation-request");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Decline" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(await ui.finished()).toContainText("User declined to provide the requested information");

  // Esc dismisses the dialog: the server hears "cancel".
  await ui.start("trigger-elicitation-request");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(await ui.finished()).toContainText("User cancelled the elicitation dialog");
});

test("URL elicitation: full URL with its host highlighted, nothing fetched, opened in a new tab only on consent", async ({ page, context }) => {
  const ui = await open(page);
  const seen: string[] = [];
  context.on("request", (req) => {
    if (new URL(req.url()).host === targetHost) seen.push(req.url());
  });
  const link = `http://${targetHost}/consent/start?flow=e2e&state=abc`;

  await ui.start("trigger-url-elicitation", { url: link });
  const dialog = ui.ask("A server asks you to open a link");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Asked by server everything");
  await expect(dialog.getByTestId("elicitation-url")).toHaveText(link);
  await expect(dialog.getByTestId("elicitation-url").locator("mark")).toHaveText(targetHost);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Decline" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(await ui.finished()).toContainText("User declined to open the URL");
  expect(hits).toEqual([]);
  expect(seen).toEqual([]);

  await ui.start("trigger-url-elicitation", { url: link });
  await expect(dialog).toBeVisible();
  expect(hits).toEqual([]);
  const popup = page.waitForEvent("popup");
  await dialog.getByRole("button", { name: "Open in a new tab" }).click();
  const tab = await popup;
  await tab.waitForLoadState();
  expect(tab.url()).toBe(link);
  await tab.close();
  await expect(await ui.finished()).toContainText("User completed the URL elicitation flow");
  // Only the new tab asked for the link (and its favicon): the console itself never fetched it.
  expect(hits.filter((h) => h !== "/favicon.ico")).toEqual(["/consent/start?flow=e2e&state=abc"]);
});

test("sampling: the dialog shows the request; Send returns the reply, Decline an error", async ({ page }) => {
  const ui = await open(page);
  await ui.start("trigger-sampling-request", { prompt: "Write a haiku about switchboards" });
  const dialog = ui.ask("A server asks for a completion (sampling)");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Asked by server everything");
  const request = dialog.getByRole("region", { name: "Request" });
  await expect(request).toContainText("user");
  await expect(request).toContainText("Write a haiku about switchboards");
  await expect(request).toContainText("System prompt: You are a helpful test server.");
  await expect(request).toContainText(/Max tokens\s*100/);
  await expect(request).toContainText(/Temperature\s*0\.7/);
  const reply = dialog.getByLabel("Your reply (as the assistant)");
  await expect(reply).toBeFocused();
  await reply.fill("Cables hum softly / a person answers the call / the server is glad");
  await page.screenshot({ path: `${SHOTS}/sampling.png` });
  await dialog.getByRole("button", { name: "Send reply" }).click();
  await expect(dialog).toHaveCount(0);
  const result = await ui.finished();
  await expect(result).toContainText("Cables hum softly");
  await expect(result).toContainText('"model": "human"');

  await ui.start("trigger-sampling-request", { prompt: "Say no" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Decline" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(await ui.finished()).toContainText(/rejected/i);
});

test("sampling with tools: call an offered tool with checked JSON input, then answer its result with text", async ({ page }) => {
  const ui = await open(page, tripsId);
  await ui.start("plan-trip", { city: "Lisbon" });
  const dialog = ui.ask("A server asks for a completion (sampling)");
  await expect(dialog).toBeVisible();
  const tools = dialog.getByRole("region", { name: "Tools offered" });
  await expect(tools).toContainText("get_weather — Current weather for a city");
  await tools.getByText("Input schema").click();
  await expect(tools).toContainText('"required"');

  await dialog.getByRole("tab", { name: "Call a tool" }).click();
  await expect(dialog.getByLabel("Tool", { exact: true })).toHaveValue("get_weather");
  const input = dialog.getByLabel("Tool input (JSON)");
  await input.fill('{ "city": ');
  await expect(dialog.getByText(/Not valid JSON/)).toBeVisible();
  await input.fill('{ "town": "Lisbon" }');
  await expect(dialog.getByText(/city/).last()).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Send tool call" })).toBeDisabled();
  await input.fill('{ "city": "Lisbon", "unit": "celsius" }');
  await dialog.getByRole("button", { name: "Send tool call" }).click();

  // The server answers the call with a tool_result and asks again: the conversation shows both.
  const request = dialog.getByRole("region", { name: "Request" });
  await expect(request).toContainText("Tool result", { timeout: 20_000 });
  await expect(request).toContainText("Tool call get_weather");
  await expect(request).toContainText("Sunny, 21 degrees in Lisbon");
  await page.screenshot({ path: `${SHOTS}/sampling-tools.png` });
  await dialog.getByLabel("Your reply (as the assistant)").fill("Pack sunglasses.");
  await dialog.getByRole("button", { name: "Send reply" }).click();
  await expect(dialog).toHaveCount(0);
  const result = await ui.finished();
  await expect(result).toContainText("toolUse");
  await expect(result).toContainText("Pack sunglasses.");
});

test("roots: a root added on the server page is what get-roots-list reports", async ({ page }) => {
  const ui = await open(page);
  const roots = await ui.openRoots();
  await roots.getByRole("button", { name: "Add root" }).click();
  await roots.getByRole("group", { name: "Root 1" }).getByLabel("Root URI").fill("file:///home/ada/switchboard");
  await roots.getByRole("group", { name: "Root 1" }).getByLabel("Root name").fill("switchboard");
  await roots.getByRole("button", { name: "Save roots" }).click();
  await expect(page.getByText("Roots (1)")).toBeVisible();

  await ui.start("get-roots-list");
  const result = await ui.finished();
  await expect(result).toContainText("URI: file:///home/ada/switchboard");
  await expect(result).toContainText("1. switchboard");
});
