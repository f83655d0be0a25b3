/**
 * A transparent HTTP proxy in front of an MCP server that records every JSON-RPC message the
 * client POSTs (and each DELETE, as method "HTTP DELETE"), so a test can prove what reached the
 * server (e.g. `notifications/cancelled`).
 * Responses (JSON or SSE) stream through untouched.
 *
 *   const tap = await startWireTap(everything.baseUrl);  // tap.url = proxy base + "/mcp"
 *   await tap.next((m) => m.method === "notifications/cancelled");
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type TappedMessage = { method?: string; id?: unknown; params?: Record<string, unknown> };

export interface WireTap {
  url: string;
  readonly messages: TappedMessage[];
  next(match: (m: TappedMessage) => boolean, timeoutMs?: number): Promise<TappedMessage>;
  stop(): Promise<void>;
}

export async function startWireTap(target: string, endpoint = "/mcp"): Promise<WireTap> {
  const upstream = new URL(target);
  const messages: TappedMessage[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      // A client leaving its session (HTTP DELETE), recorded as a message of its own.
      if (req.method === "DELETE") {
        messages.push({ method: "HTTP DELETE" });
        for (const wake of [...waiters]) wake();
      }
      if (req.method === "POST" && body.length) {
        try {
          const parsed = JSON.parse(body.toString("utf8")) as TappedMessage | TappedMessage[];
          messages.push(...(Array.isArray(parsed) ? parsed : [parsed]));
          for (const wake of [...waiters]) wake();
        } catch {
          // Not JSON: forwarded as is.
        }
      }
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      res.on("close", () => forward.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function next(match: (m: TappedMessage) => boolean, timeoutMs = 15_000): Promise<TappedMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (found) done(() => resolve(found));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no matching message; saw ${messages.map((m) => m.method).join(", ")}`))), timeoutMs);
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });
  }

  return {
    url: `http://127.0.0.1:${port}${endpoint}`,
    messages,
    next,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
