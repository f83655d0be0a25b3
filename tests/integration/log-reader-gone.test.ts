import { afterAll, beforeAll, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";

// A console whose log reader went away (a closed terminal, a parent that died) goes on serving,
// and a stop still stops it: logging a failed write used to fail again, forever, on every tick.
let sb: ConsoleHandle;
beforeAll(async () => {
  // An allow-list entry that does not parse is warned about when the settings are first read.
  sb = await startConsole({ env: { SWITCHBOARD_ALLOWED_NETWORKS: "not-a-network!" } });
});
afterAll(async () => {
  await sb?.stop({ crash: true });
});

it("serves on and stops when the pipes it logs into are closed", async () => {
  const { api } = await setupOwner(sb.url);
  sb.closeOutput();
  expect((await api("GET", "/api/v1/workspace")).status).toBe(200);
  for (let i = 0; i < 20; i++) expect((await api("GET", "/api/v1/me")).status).toBe(200);
  const pid = sb.pid();
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  process.kill(pid, "SIGTERM");
  await waitFor(() => !alive(), 30_000, () => "the console did not stop after SIGTERM");
});
