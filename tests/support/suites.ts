/**
 * Which integration suites the PostgreSQL pass (vitest project integration-postgres) runs: all of
 * them except the ones below, which reach no database at all (no console, no SQL of their own):
 * they test lib/mcp and the agent against MCP servers, and would only repeat themselves there.
 * Every suite that reaches SQL, through a console or directly, runs on both databases: Prisma and
 * the journal write different SQL for each, so "the SQL is the same" is never assumed.
 * tests/unit/test-suites.test.ts checks that nothing on this list reaches a database.
 */
export const WITHOUT_DATABASE = [
  "tests/integration/mcp-connection.test.ts",
  "tests/integration/mcp-hostile.test.ts",
  "tests/integration/relay-agent-hostile.test.ts",
  "tests/integration/resources-mcp.test.ts",
];
