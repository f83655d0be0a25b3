import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";

const MB = 1024 * 1024;

/**
 * Every body is capped before it is parsed (issue 24): better-auth's routes, which anyone can
 * reach without signing in, answer an oversized or unbounded body before reading it.
 */
describe("body caps before parsing", () => {
  let sb: ConsoleHandle;
  let port: number;

  beforeAll(async () => {
    sb = await startConsole();
    port = Number(new URL(sb.url).port);
    await setupOwner(sb.url);
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("a 20 MB sign-in body gets 413 before a byte of it is sent", async () => {
    // Only the head is written: an answer can come only from a console that did not wait for the body.
    const answer = await postHead(port, "/api/auth/sign-in/email", { "content-length": String(20 * MB), "content-type": "application/json" }, 0);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large");
  });

  it("a sign-in body of unknown length is refused (411) instead of read", async () => {
    const answer = await postHead(port, "/api/auth/sign-in/email", { "transfer-encoding": "chunked", "content-type": "application/json" }, 0);
    expect(answer.status).toBe(411);
  });

  it("memory stays flat under three 150 MB bodies sent at once", async () => {
    const before = rssMb(sb.pid());
    const answers = await Promise.all([0, 1, 2].map(() => postHead(port, "/api/auth/sign-up/email", { "content-length": String(150 * MB), "content-type": "application/json" }, 150 * MB)));
    expect(answers.map((a) => a.status)).toEqual([413, 413, 413]);
    expect(rssMb(sb.pid()) - before).toBeLessThan(64);
  });

  it("a sign-in of ordinary size still works", async () => {
    expect(await sessionCookie(sb.url, "ada@example.com", "correct horse battery")).toMatch(/session/);
  });
});

function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/)!;
  return Number(line[1]) / 1024;
}

/**
 * Writes a POST's head, then up to `bodyBytes` of body in 1 MB chunks until the console answers,
 * and resolves with its answer.
 */
function postHead(port: number, path: string, headers: Record<string, string>, bodyBytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(MB, "a");
    const pump = () => {
      while (!answered && sent < bodyBytes) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    socket.on("data", (d) => {
      answered = true;
      received += d.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(received)?.[1]);
      if (end < 0 || !(received.length >= end + 4 + length)) return;
      socket.destroy();
      resolve({ status: Number(received.split(" ")[1]), body: received.slice(end + 4, end + 4 + length) });
    });
    socket.on("error", (err) => reject(new Error(`${err.message} after ${sent} bytes`)));
    socket.on("close", () => reject(new Error(`no whole answer after ${sent} bytes: ${received.slice(0, 200)}`)));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`);
    pump();
  });
}
