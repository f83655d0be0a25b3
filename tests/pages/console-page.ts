import { expect, type Page } from "@playwright/test";

/** Page object for the Switchboard console: the steps a person takes, by accessible names. */
export class ConsolePage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async setup(owner: { name: string; email: string; password: string }) {
    await this.page.goto(`${this.baseUrl}/`);
    await expect(this.page).toHaveURL(/\/setup/);
    await this.page.getByLabel("Name", { exact: true }).fill(owner.name);
    await this.page.getByLabel("Email").fill(owner.email);
    await this.page.getByLabel("Password").fill(owner.password);
    await this.page.getByRole("button", { name: "Create account" }).click();
    // The first API token is shown once, before the console.
    await expect(this.page.getByTestId("first-token")).toHaveText(/\S{20,}/);
    await this.page.getByRole("button", { name: "Continue to the console" }).click();
    await expect(this.page).toHaveURL(/\/servers/);
  }

  async signIn(owner: { email: string; password: string }) {
    await this.page.goto(`${this.baseUrl}/sign-in`);
    await this.page.getByLabel("Email").fill(owner.email);
    await this.page.getByLabel("Password").fill(owner.password);
    await this.page.getByRole("button", { name: /sign in/i }).click();
    await expect(this.page).toHaveURL(/\/servers/);
  }

  async addServer(name: string, url: string) {
    await this.page.getByRole("link", { name: "Add server" }).first().click();
    await expect(this.page).toHaveURL(/\/servers\/new/);
    await this.page.getByLabel("Name", { exact: true }).fill(name);
    await this.page.getByLabel("URL").fill(url);
    await this.page.getByRole("button", { name: "Add server" }).click();
    await expect(this.page).toHaveURL(/\/servers\/(?!new)[\w-]+$/);
    // The page's first tool list may open the session itself (the button then says Reconnect).
    const connect = this.page.getByRole("button", { name: "Connect", exact: true });
    const reconnect = this.page.getByRole("button", { name: "Reconnect", exact: true });
    await expect(connect.or(reconnect)).toBeVisible();
    if (await connect.isVisible()) await connect.click({ timeout: 5_000 }).catch(() => expect(reconnect).toBeVisible());
    await expect(this.page.getByText("connected", { exact: true }).first()).toBeVisible();
  }

  async openTool(name: string) {
    await this.page.getByRole("tab", { name: "Tools" }).click();
    await this.page.getByRole("button", { name: new RegExp(`^${name}\\b`) }).first().click();
  }

  async runTool() {
    const run = this.page.getByRole("button", { name: "Run", exact: true });
    // On two busy cores a click can land before the form listens (CI lost one): the run has
    // started once its request has left, or the button says Running…; until then, click again.
    await expect(async () => {
      if (await this.page.getByText(/^Running…/).isVisible()) return;
      const sent = this.page.waitForRequest((r) => r.method() === "POST" && /\/tools\/call$/.test(new URL(r.url()).pathname), { timeout: 3_000 });
      await run.click({ timeout: 3_000 });
      await sent;
    }).toPass({ timeout: 30_000 });
    await expect(this.page.getByTestId("call-status").first()).toHaveText(/ok|error|timeout|cancelled/, { timeout: 30_000 });
  }

  result() {
    return this.page.getByTestId("result-view").first();
  }

  /** Opens a main navigation entry (Servers, Agents, History, Settings). */
  async nav(label: string) {
    await this.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
  }

  async openAgents() {
    await this.nav("Agents");
    await expect(this.page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  }

  /** Clicks "Pair an agent" and returns the one-time command the page shows. */
  async pairAgent(): Promise<string> {
    await this.page.getByRole("button", { name: "Pair an agent" }).click();
    const command = this.page.getByTestId("pairing-command");
    await expect(command).toContainText(" pair ");
    return (await command.textContent()) ?? "";
  }

  /** An agent's card on the Agents page, by its name. */
  agentCard(name: string) {
    return this.page.getByRole("article", { name, exact: true });
  }
}
