import { expect, test, type Page } from "@playwright/test";
import { ConsolePage } from "../pages/console-page";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { insertCalls } from "../support/seed-calls";
import { startEverything, type RunningServer } from "../support/servers";
import { browserPage, expectAccessible } from "./support";

// Issue 27, items 9 and 10: the dashboard counts a timeout as a failure, apart from errors, and
// leaves it out of the durations; its axis labels stay on one line; a tiny image is shown at a
// readable size and zooms.

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let userId: string;
let imageCallId: string;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  const { api, workspace } = owner;
  const me = (await api("GET", "/api/v1/me")).body;
  userId = (me.user ?? me).id as string;
  const serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id as string;
  const call = async (body: object) => (await api("POST", `/api/v1/servers/${serverId}/tools/call`, body)).body.call;
  for (const message of ["alpha", "beta"]) expect((await call({ name: "echo", arguments: { message } })).status).toBe("ok");
  // An operation of 5 s with a 300 ms timeout: no answer in time.
  const slow = await call({ name: "trigger-long-running-operation", arguments: { duration: 5, steps: 1 }, timeoutMs: 300 });
  expect(slow.status).toBe("timeout");
  // A tool that refuses its arguments: an error.
  const refused = await call({ name: "get-sum", arguments: { a: "one", b: 2 }, skipValidation: true });
  expect(refused.status).toBe("error");
  const image = await call({ name: "get-tiny-image", arguments: {} });
  expect(image.status).toBe("ok");
  imageCallId = image.id;
  // A slow call that did answer, a minute long: its duration sets the axis ("60000 ms" used to wrap).
  await insertCalls(sb.db, [{ workspaceId: workspace.id, serverId, startedAt: new Date(Date.now() - 20 * 60_000), durationMs: 65_000, status: "ok", name: "echo", userId }]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

const figure = (page: Page, label: string) => page.getByRole("link", { name: new RegExp(`^${label}: `) });

for (const theme of ["light", "dark"] as const) {
  test(`the dashboard counts a timeout as a failure apart from errors, with one-line axis labels (${theme})`, async ({ browser }) => {
    const { page } = await browserPage(browser, { width: 1280, height: 1100, theme: { name: theme, user: userId } });
    await new ConsolePage(page, sb.url).signIn(owner);
    await page.goto(`${sb.url}/dashboard?range=1h`);
    // 2 echoes, the timeout, the error, the image and the slow call: 2 of 6 failed.
    await expect(figure(page, "Calls")).toHaveAccessibleName("Calls: 6");
    await expect(figure(page, "Failure rate")).toHaveAccessibleName("Failure rate: 33.3%");
    await expect(page.getByTestId("figure-failure-rate-detail")).toHaveText("1 error, 1 timeout");
    await expect(figure(page, "Timeouts")).toHaveAccessibleName("Timeouts: 1");
    await expect(figure(page, "p50")).toHaveAccessibleDescription(/answered calls; 1 timeout not included/);

    const failures = page.getByRole("region", { name: "Failure rate", exact: true });
    await expect(failures).toContainText("33.3% of calls failed: 1 error, 1 timeout, 0 interrupted");
    await expect(page.getByRole("region", { name: "Duration", exact: true })).toContainText("of answered calls; 1 timeout not included");

    // Timeouts are a series of their own in the calls chart, drawn in their own colour.
    const calls = page.getByRole("region", { name: "Calls over time" });
    await expect(calls.locator(".recharts-legend-item-text")).toHaveText(["ok and other", "errors", "timeouts", "interrupted"]);
    await expect(calls.locator(".recharts-bar")).toHaveCount(4);
    // The bars drawn (ok, the error, the timeout) have three colours: the timeout's is its own.
    const drawn = await calls.locator(".recharts-bar-rectangle path").evaluateAll((paths) =>
      paths.filter((p) => (p as SVGGraphicsElement).getBBox().height > 0).map((p) => p.getAttribute("fill")),
    );
    expect(new Set(drawn).size).toBe(3);

    // Every axis label is one line: a single line of text, no taller than one line of its font.
    for (const title of ["Calls over time", "Failure rate", "Duration", "Top tools"]) {
      const ticks = page.getByRole("region", { name: title, exact: true }).locator(".recharts-cartesian-axis-tick-value");
      await expect(ticks.first()).toBeVisible();
      const boxes = await ticks.evaluateAll((els) =>
        els.map((el) => ({ text: el.textContent, lines: el.querySelectorAll("tspan").length, height: (el as SVGGraphicsElement).getBBox().height })),
      );
      for (const box of boxes) {
        expect(box.lines, `${title}: ${box.text}`).toBeLessThanOrEqual(1);
        expect(box.height, `${title}: ${box.text}`).toBeLessThan(11 * 1.6);
      }
    }
    // The minute-long call's duration axis reads in seconds.
    const durationTicks = await page.getByRole("region", { name: "Duration", exact: true }).locator(".recharts-cartesian-axis-tick-value").allTextContents();
    expect(durationTicks.some((t) => /^\d+(\.\d)? s$/.test(t)), durationTicks.join(" | ")).toBe(true);

    // The errors of the summary open history filtered to them, the timeouts likewise.
    await failures.getByRole("link", { name: "1 timeout" }).click();
    await expect(page).toHaveURL(/\/history\?.*status=timeout/);
    await expect(page.getByTestId("history-row")).toHaveCount(1);
    await page.goBack();
    await expect(figure(page, "Timeouts")).toBeVisible();
    await expectAccessible(page, { loading: page.getByRole("status").filter({ hasText: /Loading/ }) });
    await page.context().close();
  });

  test(`a tiny image shows at a readable size and zooms in a dialog (${theme})`, async ({ browser }) => {
    const { page } = await browserPage(browser, { width: 1280, height: 1100, theme: { name: theme, user: userId } });
    await new ConsolePage(page, sb.url).signIn(owner);
    await page.goto(`${sb.url}/calls/${imageCallId}`);
    const zoom = page.getByRole("button", { name: /^Zoom image \(\d+ × \d+ px\)$/ });
    await expect(zoom).toBeVisible();
    const inline = zoom.getByRole("img");
    const natural = await inline.evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));
    expect(natural.width).toBeLessThan(64);
    const shown = (await inline.boundingBox())!;
    expect(shown.width).toBeGreaterThanOrEqual(64);
    await expect(page.getByTestId("image-info")).toContainText(`${natural.width} × ${natural.height} px`);
    await expect(page.getByTestId("image-info")).toContainText(/shown at \d+×/);

    // Enter on the control opens the zoom view: a dialog named for the image, the image larger.
    await zoom.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: /^Image, \d+ × \d+ px/ });
    await expect(dialog).toBeVisible();
    const large = (await dialog.getByRole("img").boundingBox())!;
    expect(large.width).toBeGreaterThan(shown.width * 2);
    await expectAccessible(page, { loading: page.getByRole("status").filter({ hasText: /Loading/ }) });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    // A click opens it too, and a click outside it (on the backdrop) closes it.
    await zoom.click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
    await expectAccessible(page, { loading: page.getByRole("status").filter({ hasText: /Loading/ }) });
    await page.context().close();
  });
}
