import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

/**
 * One HTTP/1.1 request written byte for byte (any request target, any Host), answered by its
 * status line and headers; the body is not waited for (event streams never end).
 */
export function rawRequest(port: number, lines: { method: string; target: string; host: string | null; headers?: Record<string, string>; body?: string }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const body = lines.body ?? "";
    const head = [
      `${lines.method} ${lines.target} HTTP/1.1`,
      ...(lines.host === null ? [] : [`Host: ${lines.host}`]),
      ...Object.entries(lines.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
      "",
      "",
    ].join("\r\n");
    let received = "";
    socket.setTimeout(30_000, () => socket.destroy(new Error(`no answer to ${lines.method} ${lines.target}`)));
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      socket.destroy();
      const [statusLine, ...rest] = received.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of rest) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(" ")[1]), headers });
    });
    socket.on("error", reject);
    socket.on("close", () => reject(new Error(`connection closed without an answer to ${lines.method} ${lines.target}`)));
    socket.write(head + body);
  });
}
