import { migrateDeploy } from "./migrated";
import { createTestPostgresDatabase, MIGRATED_TEMPLATE, startPostgres } from "./postgres";

/**
 * Vitest global set-up of the integration-postgres project: one loopback PostgreSQL for the pass,
 * with a template database migrated once that every console's database is created from.
 */
export default async function setup() {
  const server = await startPostgres();
  process.env.SWITCHBOARD_TEST_POSTGRES_URL = server.url();
  try {
    migrateDeploy(await createTestPostgresDatabase(MIGRATED_TEMPLATE));
  } catch (err) {
    await server.stop();
    throw err;
  }
  return () => server.stop();
}
