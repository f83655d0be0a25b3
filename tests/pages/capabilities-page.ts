import { expect, type Locator, type Page } from "@playwright/test";

/** Page object for a server's capability tabs (resources, templates, prompts): steps by accessible names. */
export class CapabilitiesPage {
  constructor(readonly page: Page) {}

  async openTab(name: "Tools" | "Resources" | "Templates" | "Prompts") {
    await this.page.getByRole("tab", { name }).click();
  }

  /** Selects an entry of the open tab's list by its primary text. */
  async select(primary: string) {
    await this.page.getByRole("button", { name: new RegExp(`^${primary}\\b`) }).first().click();
  }

  field(name: string): Locator {
    return this.page.getByRole("combobox", { name: new RegExp(`^${name}\\*?$`) });
  }

  /** Types into a field, waits for the server's suggestion and picks it. */
  async pickSuggestion(field: string, typed: string, suggestion: string) {
    const input = this.field(field);
    await input.fill(typed);
    const option = this.page.getByRole("listbox", { name: `Suggestions for ${field}` }).getByRole("option", { name: suggestion, exact: true });
    await option.click();
    await expect(input).toHaveValue(suggestion);
  }

  result(): Locator {
    return this.page.getByTestId("result-view").first();
  }
}
