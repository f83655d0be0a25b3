import net from "node:net";
import { freePort } from "./servers";

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP load balancer on loopback, as a deployment puts in front of several consoles: each
 * connection goes to the first backend that accepts it, so when that one dies its clients
 * (agents, browsers) reconnect to the next.
 */
export async function startBalancer(backends: string[]): Promise<Balancer> {
  const targets = backends.map((b) => new URL(b));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.once("close", () => sockets.delete(client));
    client.pause();
    const tryNext = (i: number) => {
      if (i >= targets.length) return void client.destroy();
      const upstream = net.connect(Number(targets[i]!.port), targets[i]!.hostname);
      upstream.once("error", () => tryNext(i + 1));
      upstream.once("connect", () => {
        upstream.removeAllListeners("error");
        sockets.add(upstream);
        upstream.once("close", () => (sockets.delete(upstream), client.destroy()));
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
        client.once("close", () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    tryNext(0);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
