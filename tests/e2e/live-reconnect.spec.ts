import net from "node:net";
import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { openEvents } from "../support/events";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

let sb: ConsoleHandle;
let everything: RunningServer;

/** A TCP proxy in front of the console whose connections the test can cut, as a network would. */
async function cuttableProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("a browser whose event stream drops mid-call receives every event after reconnecting", async ({ page }) => {
  const { api, token } = await setupOwner(sb.url);
  const server = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server;
  await api("POST", `/api/v1/servers/${server.id}/connect`);
  const proxy = await cuttableProxy(new URL(sb.url));
  await new ConsolePage(page, proxy.url).signIn({ email: "ada@example.com", password: "correct horse battery" });

  // The browser's own EventSource, recording every event id it sees.
  await page.evaluate((url) => {
    const w = window as unknown as { seen: string[]; opens: number };
    w.seen = [];
    w.opens = 0;
    const source = new EventSource(url);
    source.onopen = () => (w.opens += 1);
    source.onmessage = (e) => {
      const data = JSON.parse(e.data) as { type: string };
      if (data.type === "progress") w.seen.push(e.lastEventId);
    };
  }, `${proxy.url}/api/v1/events`);
  await expect.poll(() => page.evaluate(() => (window as unknown as { opens: number }).opens)).toBe(1);

  // A reference stream that never drops.
  const reference = await openEvents(sb.url, token);
  const call = api("POST", `/api/v1/servers/${server.id}/tools/call`, {
    name: "trigger-long-running-operation",
    arguments: { duration: 4, steps: 8 },
  });
  await reference.next((e) => e.type === "progress");
  // Cut the browser's connections mid-call; EventSource reconnects on its own with Last-Event-ID,
  // after events it missed were published.
  await expect.poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen.length)).toBeGreaterThan(0);
  proxy.cut();
  await reference.next((e) => e.type === "progress" && Number(e.progress) >= 4);
  expect((await call).body.call.status).toBe("ok");

  const progressIds = () => reference.ids.filter((_, i) => reference.events[i]!.type === "progress");
  await expect.poll(() => page.evaluate(() => (window as unknown as { opens: number }).opens), { timeout: 20_000 }).toBeGreaterThan(1);
  // Every progress event the uninterrupted stream got, in the same order, none twice.
  await expect
    .poll(async () => JSON.stringify(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)), { timeout: 20_000 })
    .toBe(JSON.stringify(progressIds()));
  expect(progressIds().length).toBeGreaterThanOrEqual(8);
  reference.close();
  proxy.close();
});
