import { defineConfig } from "@playwright/test";

// The browser tests run the console as production does: the compiled server (tests/support/console.ts).
process.env.SWITCHBOARD_TEST_COMPILED ??= "1";

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time, each with its own console, database and browser context; the tests
  // of one file run in order (most share one console). SWITCHBOARD_TEST_WORKERS=1 runs one at a time.
  fullyParallel: false,
  workers: Number(process.env.SWITCHBOARD_TEST_WORKERS ?? 2),
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
    trace: "off",
  },
});
