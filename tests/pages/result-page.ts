import { expect, type Locator, type Page } from "@playwright/test";
import { ConsolePage } from "./console-page";

/** Page object for rendered results: tools run from a server page, blocks, cards, structured output. */
export class ResultPage extends ConsolePage {
  constructor(page: Page, baseUrl: string) {
    super(page, baseUrl);
  }

  async openServer(serverId: string) {
    await this.page.goto(`${this.baseUrl}/servers/${serverId}`);
    await expect(this.page.getByRole("tab", { name: "Tools" })).toBeVisible();
  }

  /** Opens a tool, optionally sets form fields (by label), runs it and waits for the outcome. */
  async run(tool: string, fields: Record<string, string> = {}, selects: Record<string, string> = {}) {
    await this.openTool(tool);
    await expect(this.page.getByRole("article", { name: `Tool ${tool}` })).toBeVisible();
    for (const [label, value] of Object.entries(fields)) await this.page.getByLabel(label, { exact: true }).fill(value);
    for (const [label, value] of Object.entries(selects)) await this.page.getByLabel(label, { exact: true }).selectOption(value);
    await this.runTool();
    return this.result();
  }

  /** A content block of a type, within the latest result. */
  block(type: string): Locator {
    return this.result().locator(`[data-block-type="${type}"]`);
  }

  card(title: string): Locator {
    return this.result().getByRole("article", { name: `Card: ${title}` });
  }

  dialog(): Locator {
    return this.page.getByRole("dialog");
  }

  structured(): Locator {
    return this.result().getByRole("group", { name: "Structured content" });
  }

  /** Counts what would betray executed or injected markup anywhere in the page. */
  async injected() {
    return this.page.evaluate(() => ({
      scripts: document.querySelectorAll("main script").length,
      onerror: document.querySelectorAll("[onerror], [onload]").length,
      jsLinks: [...document.querySelectorAll("a[href]")].filter((a) => a.getAttribute("href")!.trim().toLowerCase().startsWith("javascript:")).length,
      svgImages: [...document.querySelectorAll("img")].filter((img) => /svg/i.test(img.getAttribute("src") ?? "")).length,
      xImages: [...document.querySelectorAll("img")].filter((img) => img.getAttribute("src") === "x").length,
      foreignImages: [...document.querySelectorAll("main img")].filter((img) => /^https?:/i.test(img.getAttribute("src") ?? "")).length,
    }));
  }

  /** The page answers input: switching to the Resources tab and back takes effect promptly. */
  async expectResponsive(maxMs = 5000) {
    const started = Date.now();
    await this.page.getByRole("tab", { name: "Resources" }).click({ timeout: maxMs });
    await expect(this.page.getByRole("tab", { name: "Resources" })).toHaveAttribute("aria-selected", "true", { timeout: maxMs });
    await this.page.getByRole("tab", { name: "Tools" }).click({ timeout: maxMs });
    return Date.now() - started;
  }
}
