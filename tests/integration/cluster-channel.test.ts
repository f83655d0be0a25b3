import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openChannel, type Channel } from "@/lib/core/cluster/channel";
import { onPostgres, waitFor } from "../support/console";
import { createTestPostgresDatabase } from "../support/postgres";

/** The instance channel on a real PostgreSQL: one order for every listener, messages of any size. */
describe.skipIf(!onPostgres)("LISTEN/NOTIFY instance channel", () => {
  const got: [string[], string[]] = [[], []];
  const channels: Channel[] = [];

  beforeAll(async () => {
    const url = await createTestPostgresDatabase(`sb_channel_${Date.now()}`);
    const ups: Promise<void>[] = [];
    for (const inbox of got) {
      let up!: () => void;
      ups.push(new Promise<void>((r) => (up = r)));
      channels.push(openChannel(url, "switchboard_test", { message: (m) => inbox.push(m), up: () => up(), down: () => undefined }));
    }
    await Promise.all(ups);
  });
  afterAll(async () => {
    await Promise.all(channels.map((c) => c.close()));
  });

  it("delivers every message to every listener, sender included, in the same order; big ones whole", async () => {
    // Over PostgreSQL's 8000-byte payload, with multi-byte characters and surrogate pairs at every cut.
    const big = JSON.stringify({ text: "é🙂~".repeat(30_000) + "end" });
    const sent: string[] = [];
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      const from = channels[i % 2]!;
      const message = i % 10 === 5 ? big : JSON.stringify({ i });
      sent.push(message);
      sends.push(from.send(message));
    }
    await Promise.all(sends);
    await waitFor(() => got[0].length === 40 && got[1].length === 40);
    expect(got[0]).toEqual(got[1]);
    expect([...got[0]].sort()).toEqual([...sent].sort());
    expect(got[0].filter((m) => m === big)).toHaveLength(4);
  });

  it("refuses a message over its cap instead of flooding the queue", async () => {
    await expect(channels[0]!.send("x".repeat(5 * 1024 * 1024))).rejects.toThrow(/over the channel/);
  });
});
