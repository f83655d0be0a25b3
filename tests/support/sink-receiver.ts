import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a sink receiver accepted (answered 2xx). */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTP receiver on loopback for audit sinks (webhook, Splunk HEC, OTLP/HTTP): `down` answers
 * 503, `hold` keeps each request open without an answer (an instance killed mid-delivery),
 * `up` answers 200 and records the request.
 */
export async function startSinkReceiver() {
  let mode: "up" | "down" | "hold" = "up";
  const received: Received[] = [];
  const held = new Set<http.ServerResponse>();
  let refused = 0;
  let heldCount = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (mode === "down") {
        refused++;
        res.writeHead(503).end("down");
        return;
      }
      if (mode === "hold") {
        heldCount++;
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    set(next: "up" | "down" | "hold") {
      mode = next;
    },
    refused: () => refused,
    held: () => heldCount,
    /** Drops the requests held open (their sockets close unanswered). */
    dropHeld() {
      for (const res of held) res.destroy();
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export type SinkReceiver = Awaited<ReturnType<typeof startSinkReceiver>>;
