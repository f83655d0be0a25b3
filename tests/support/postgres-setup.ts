import { startPostgres } from "./postgres";

/** Vitest global set-up of the integration-postgres project: one loopback PostgreSQL for the pass. */
export default async function setup() {
  const server = await startPostgres();
  process.env.SWITCHBOARD_TEST_POSTGRES_URL = server.url();
  return () => server.stop();
}
