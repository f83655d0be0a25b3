import { expect, type Locator, type Page } from "@playwright/test";

/** Page object for a server's live views: Logs, Traffic, health and ping. */
export class LivePage {
  constructor(readonly page: Page) {}

  async openView(name: "Capabilities" | "Logs" | "Traffic") {
    await this.page.getByRole("tablist", { name: "Server views" }).getByRole("tab", { name }).click();
  }

  logLines(): Locator {
    return this.page.getByRole("list", { name: "Log lines" }).getByRole("listitem");
  }

  trafficRows(): Locator {
    return this.page.getByTestId("traffic-row");
  }

  async setServerLogLevel(level: string) {
    await this.page.getByRole("combobox", { name: "Server log level" }).selectOption(level);
    await expect(this.page.getByRole("combobox", { name: "Server log level" })).toHaveValue(level);
  }

  async ping() {
    // A click that lands before the page has hydrated does nothing: click again until it answers.
    await expect(async () => {
      await this.page.getByRole("button", { name: "Ping", exact: true }).click();
      await expect(this.page.getByTestId("session-health")).toContainText(/ping \d+(\.\d)? ms/, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
  }
}
