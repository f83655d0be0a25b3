import path from "node:path";
import { defineConfig } from "vitest/config";
import { WITHOUT_DATABASE } from "./tests/support/suites";

const integration = {
  include: ["tests/integration/**/*.test.ts"],
  environment: "node" as const,
  testTimeout: 60_000,
  hookTimeout: 180_000,
  // Consoles start compiled, from this run's own build (tests/support/compile-setup.ts).
  globalSetup: ["tests/support/compile-setup.ts"],
};

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/empty-module.ts"),
    },
  },
  test: {
    // Two files side by side, the SQLite and PostgreSQL passes mixed: much of an integration file's
    // time is waiting (timeouts, backoffs, a peer's answer), and each file has its own consoles,
    // ports (freePort), data directories and databases. Three on 2 busy cores pushed console
    // start-ups past their 60 s deadline. SWITCHBOARD_TEST_WORKERS=1 runs one file at a time.
    maxWorkers: Number(process.env.SWITCHBOARD_TEST_WORKERS ?? 2),
    projects: [
      {
        extends: true,
        // Unit files share the two cores with integration files: CPU-bound property tests get room.
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      { extends: true, test: { name: "integration", ...integration } },
      // Servers and hosts nobody on this team wrote (docs/interop.md), on SQLite only: they test the
      // protocol, not the database, and the PostgreSQL pass would only double their time.
      { extends: true, test: { name: "interop", ...integration, include: ["tests/interop/**/*.test.ts"] } },
      // The same suite again with every console on PostgreSQL (a real server on loopback), but for
      // the suites that reach no database (tests/support/suites.ts).
      {
        extends: true,
        test: {
          name: "integration-postgres",
          ...integration,
          exclude: WITHOUT_DATABASE,
          env: { SWITCHBOARD_TEST_DATABASE: "postgres" },
          globalSetup: [...integration.globalSetup, "tests/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
