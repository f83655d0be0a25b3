import path from "node:path";
import { defineConfig } from "vitest/config";

const integration = {
  include: ["tests/integration/**/*.test.ts"],
  environment: "node" as const,
  testTimeout: 60_000,
  hookTimeout: 180_000,
  fileParallelism: false,
};

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/empty-module.ts"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      { extends: true, test: { name: "integration", ...integration } },
      // The same suite again with every console on PostgreSQL (a real server on loopback).
      {
        extends: true,
        test: {
          name: "integration-postgres",
          ...integration,
          env: { SWITCHBOARD_TEST_DATABASE: "postgres" },
          globalSetup: ["tests/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
