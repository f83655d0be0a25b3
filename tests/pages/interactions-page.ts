import { expect, type Locator, type Page } from "@playwright/test";
import { ResultPage } from "./result-page";

/** Page object for server-initiated requests: start a tool that asks, then answer its dialog. */
export class InteractionsPage extends ResultPage {
  constructor(page: Page, baseUrl: string) {
    super(page, baseUrl);
  }

  /** Opens a tool, fills its arguments (by label) and clicks Run without waiting for the outcome. */
  async start(tool: string, fields: Record<string, string> = {}) {
    await this.openTool(tool);
    const form = this.page.getByRole("article", { name: `Tool ${tool}` });
    await expect(form).toBeVisible();
    for (const [label, value] of Object.entries(fields)) await form.getByRole("textbox", { name: new RegExp(`^${label}\\b`) }).first().fill(value);
    await this.page.getByRole("button", { name: "Run", exact: true }).click();
  }

  /** The dialog of a pending request, by its title. */
  ask(title: "A server asks for information" | "A server asks you to open a link" | "A server asks for a completion (sampling)"): Locator {
    return this.page.getByRole("dialog", { name: title });
  }

  /** Waits for the running call to finish and returns the result view. */
  async finished(status: RegExp = /ok|error/) {
    await expect(this.page.getByTestId("call-status").first()).toHaveText(status, { timeout: 30_000 });
    return this.result();
  }

  /** The Roots section of the server page (a disclosure). */
  async openRoots(): Promise<Locator> {
    const roots = this.page.getByRole("group", { name: "Roots" });
    if ((await roots.getAttribute("open")) === null) await roots.locator("summary").click();
    return roots;
  }
}
