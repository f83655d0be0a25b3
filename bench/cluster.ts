import fs from "node:fs";
import { openChannel, type Channel } from "../lib/core/cluster/channel";
import { createTestPostgresDatabase, startPostgres } from "../tests/support/postgres";
import { machine, percentile, writeSection } from "./report";

const SMALL = 20_000;
const BIG = 200;

/** A progress event as the channel carries it (about 300 bytes). */
const progress = (i: number) =>
  JSON.stringify({ k: "ev", from: "instance-a", w: "workspace", id: `epoch-${i}`, e: { type: "progress", serverId: "server", callId: "call", requestId: `req-${i}`, progress: i, total: SMALL } });

async function listeners(url: string, count: number): Promise<{ channels: Channel[]; inboxes: { at: number[]; n: number }[] }> {
  const inboxes = Array.from({ length: count }, () => ({ at: [] as number[], n: 0 }));
  const ups: Promise<void>[] = [];
  const channels = inboxes.map((inbox) => {
    let up!: () => void;
    ups.push(new Promise<void>((r) => (up = r)));
    return openChannel(url, "bench", {
      message: () => {
        inbox.n++;
        inbox.at.push(performance.now());
      },
      up: () => up(),
      down: () => undefined,
    });
  });
  await Promise.all(ups);
  return { channels, inboxes };
}

/** Sends `total` messages with `inFlight` outstanding; returns send times and the wall time until every listener had them all. */
async function run(sender: Channel, inboxes: { at: number[]; n: number }[], total: number, inFlight: number, message: (i: number) => string) {
  for (const inbox of inboxes) (inbox.at = []), (inbox.n = 0);
  const sentAt: number[] = [];
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const i = next++;
        sentAt[i] = performance.now();
        await sender.send(message(i));
      }
    }),
  );
  while (inboxes.some((b) => b.n < total)) await new Promise((r) => setTimeout(r, 5));
  const wall = Math.max(...inboxes.map((b) => b.at[total - 1]!)) - t0;
  // The channel keeps one order, so the i-th message received is the i-th sent.
  const latency = inboxes[1]!.at.map((t, i) => t - sentAt[i]!);
  return { rate: total / (wall / 1000), p50: percentile(latency, 50), p95: percentile(latency, 95) };
}

/** The LISTEN/NOTIFY instance channel (lib/core/cluster): how many events per second three instances share. */
export async function benchCluster(): Promise<void> {
  const server = await startPostgres();
  try {
    process.env.SWITCHBOARD_TEST_POSTGRES_URL = server.url();
    const url = await createTestPostgresDatabase(`bench_cluster_${Date.now()}`);
    const { channels, inboxes } = await listeners(url, 3);
    const big = "x".repeat(100 * 1024);
    await run(channels[0]!, inboxes, 2000, 64, progress); // warm-up
    const one = await run(channels[0]!, inboxes, 2000, 1, progress);
    const small = await run(channels[0]!, inboxes, SMALL, 64, progress);
    const large = await run(channels[0]!, inboxes, BIG, 4, () => big);
    await Promise.all(channels.map((c) => c.close()));
    const body = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()}, PostgreSQL ${fs.readdirSync("/usr/lib/postgresql").join(", ")} on loopback.`,
      "One instance sends, three listen (the sender among them, as in the console); latency is from send to delivery at another instance, queueing behind the messages outstanding included.",
      "",
      "| message | outstanding | messages/s delivered to all | latency p50 | latency p95 |",
      "| --- | --- | --- | --- | --- |",
      `| progress event (~${progress(1).length} B), 2,000 | 1 | ${Math.round(one.rate).toLocaleString("en")} | ${one.p50.toFixed(2)} ms | ${one.p95.toFixed(2)} ms |`,
      `| progress event, ${SMALL.toLocaleString("en")} | 64 | ${Math.round(small.rate).toLocaleString("en")} | ${small.p50.toFixed(2)} ms | ${small.p95.toFixed(2)} ms |`,
      `| 100 KiB (${Math.ceil((100 * 1024) / 2600)} pieces in one transaction), ${BIG} | 4 | ${Math.round(large.rate).toLocaleString("en")} | ${large.p50.toFixed(2)} ms | ${large.p95.toFixed(2)} ms |`,
    ].join("\n");
    writeSection("Instance channel (PostgreSQL LISTEN/NOTIFY)", body);
    console.log(body);
  } finally {
    await server.stop();
  }
}
