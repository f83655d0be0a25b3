import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

let sb: ConsoleHandle;
let everything: RunningServer;
const calls: Record<string, string> = {};

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  const { api } = await setupOwner(sb.url);
  const server = await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 });
  for (const message of ["alpha", "beta", "gamma"]) {
    const res = await api("POST", `/api/v1/servers/${server.body.server.id}/tools/call`, { name: "echo", arguments: { message } });
    expect(res.body.call.status).toBe("ok");
    calls[message] = res.body.call.id;
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("note, tag and star a call; filter history by tag; save the view and apply it after a reload", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);

  await page.goto(`${sb.url}/calls/${calls.alpha}`);
  const notes = page.getByRole("region", { name: "Notes" });
  await notes.getByLabel("New note").fill("Echo answered **twice** here; check the retry.");
  await notes.getByRole("button", { name: "Add note" }).click();
  const note = notes.getByRole("listitem", { name: "Note by Ada Owner" });
  await expect(note).toContainText("Echo answered twice here");
  await expect(note.locator("strong")).toHaveText("twice");
  await expect(note).toContainText("just now");
  await expect(notes.getByLabel("New note")).toHaveValue("");

  const tags = page.getByRole("region", { name: "Tags" });
  await tags.getByLabel("Add tag").fill("  Flaky ");
  await tags.getByLabel("Add tag").press("Enter");
  await expect(tags.getByRole("list", { name: "Current tags" })).toContainText("#flaky");
  await expect(tags.getByLabel("Add tag")).toHaveValue("");

  const star = page.getByRole("button", { name: "Star", exact: true });
  await expect(star).toHaveAttribute("aria-pressed", "false");
  await star.click();
  await expect(star).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${SHOTS}/review-call.png` });

  // History: the row shows the star and the tag; star a second call from its row.
  await ui.nav("History");
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(3);
  const alphaRow = rows.filter({ hasText: "alpha" });
  await expect(alphaRow.getByRole("button", { name: "Star", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(alphaRow).toContainText("#flaky");
  await expect(alphaRow).toContainText("1 note");
  const betaStar = rows.filter({ hasText: "beta" }).getByRole("button", { name: "Star", exact: true });
  await betaStar.click();
  await expect(betaStar).toHaveAttribute("aria-pressed", "true");
  const starredOnly = page.getByRole("button", { name: "Starred", exact: true });
  await starredOnly.click();
  await expect(starredOnly).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/starred=1/);
  await expect(rows).toHaveCount(2);
  await starredOnly.click();
  await expect(starredOnly).toHaveAttribute("aria-pressed", "false");
  await expect(rows).toHaveCount(3);

  await page.getByRole("combobox", { name: /^Tag\b/ }).selectOption("flaky");
  await expect(page).toHaveURL(/[?&]tag=flaky/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("alpha");

  const views = page.getByRole("region", { name: "Saved views" });
  await views.getByRole("button", { name: "Save view" }).click();
  await views.getByLabel("View name").fill("Flaky calls");
  await views.getByRole("button", { name: "Save", exact: true }).click();
  await expect(views.getByRole("button", { name: "Flaky calls", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${SHOTS}/review-history.png` });

  // Unfiltered history after a reload; one click on the view filters it again, in the URL too.
  await page.goto(`${sb.url}/history`);
  await page.reload();
  await expect(rows).toHaveCount(3);
  const saved = views.getByRole("button", { name: "Flaky calls", exact: true });
  await expect(saved).toHaveAttribute("aria-pressed", "false");
  await saved.click();
  await expect(page).toHaveURL(/\/history\?tag=flaky$/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("alpha");
  await expect(saved).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("combobox", { name: /^Tag\b/ })).toHaveValue("flaky");

  // Its creator can delete it.
  await views.getByRole("button", { name: "Delete view Flaky calls" }).click();
  await page.getByRole("button", { name: "Delete view", exact: true }).click();
  await expect(views.getByRole("button", { name: "Flaky calls", exact: true })).toHaveCount(0);
});
