import { getEventListeners } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundFetch } from "@/lib/core/net/dispatcher";
import { wholeEventStream } from "@/lib/core/net/whole-event-stream";

// A loopback server answering like an MCP server does: JSON, an event stream, or 202 with no body.
let server: http.Server;
let base = "";
// Streams the test holds open, ended (after one more event) when it says so.
const held: { res: http.ServerResponse; last: string }[] = [];
let onHeld: (() => void) | null = null;
const nextHeld = () => new Promise<void>((resolve) => (onHeld = resolve));
const hold = (res: http.ServerResponse, last: string) => {
  held.push({ res, last });
  onHeld?.();
};
const priming = "id: p1\ndata: \n\n";
const answer = (id: number, text: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
const progress = JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.url === "/json") return res.writeHead(200, { "content-type": "application/json", "x-echo": String(req.headers["x-sent"]) }).end(body);
      if (req.url === "/sse") return res.writeHead(200, { "content-type": "text/event-stream" }).end(`event: message\ndata: ${body}\n\n`);
      if (req.url === "/answer") return res.writeHead(200, { "content-type": "text/event-stream" }).end(`event: message\nid: e1\ndata: ${answer(1, "héllo")}\n\n`);
      if (req.url === "/progress-then-answer") return res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${progress}\n\nevent: message\ndata: ${answer(1, "done")}\n\n`);
      if (req.url === "/retry") return res.writeHead(200, { "content-type": "text/event-stream" }).end(`retry: 500\ndata: ${answer(1, "x")}\n\n`);
      if (req.url === "/slow") {
        res.writeHead(200, { "content-type": "text/event-stream" }).write(`data: ${progress}\n\n`);
        return hold(res, `data: ${answer(1, "later")}\n\n`);
      }
      if (req.url === "/open") {
        res.writeHead(200, { "content-type": "text/event-stream" }).write(`data: ${answer(1, "kept open")}\n\n`);
        return hold(res, `data: ${progress}\n\n`);
      }
      if (req.url === "/primed") {
        res.writeHead(200, { "content-type": "text/event-stream" }).write(priming);
        return hold(res, `event: message\ndata: ${answer(1, "after priming")}\n\n`);
      }
      if (req.url === "/redirect") return res.writeHead(307, { location: "/json" }).end();
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const outbound = createOutboundFetch(async () => ({ mode: "private", allowed: [] }));
const init = (signal: AbortSignal): RequestInit => ({ method: "POST", body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', headers: { "x-sent": "yes" }, signal, redirect: "manual" });

describe("outbound fetch for MCP transports", () => {
  it("answers JSON, event streams and empty 202s as fetch would", async () => {
    const signal = new AbortController().signal;
    const json = await outbound(`${base}/json`, init(signal));
    expect([json.status, json.headers.get("x-echo"), await json.json()]).toEqual([200, "yes", { jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(json).toBeInstanceOf(Response);
    const sse = await outbound(`${base}/sse`, init(signal));
    expect(await sse.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"method":"ping"}\n\n');
    const accepted = await outbound(`${base}/accepted`, init(signal));
    expect([accepted.status, await accepted.text()]).toEqual([202, ""]);
    // Redirects are the caller's (the SDK follows same-origin ones itself).
    const redirect = await outbound(`${base}/redirect`, init(signal));
    expect([redirect.status, redirect.headers.get("location")]).toEqual([307, "/json"]);
  });

  // fetch leaves one per request until garbage collection; the last one may still be going away.
  it("leaves no listeners piling up on a transport's lifelong signal", async () => {
    const lifelong = new AbortController().signal;
    for (let i = 0; i < 50; i++) await (await outbound(`${base}/json`, init(lifelong))).text();
    expect(getEventListeners(lifelong, "abort").length).toBeLessThanOrEqual(1);
  });

  it("hands an event stream that arrived whole with its answer on as JSON", async () => {
    const signal = new AbortController().signal;
    const one = await outbound(`${base}/answer`, init(signal));
    expect([one.headers.get("content-type"), await one.json()]).toEqual(["application/json", JSON.parse(answer(1, "héllo"))]);
    const two = await outbound(`${base}/progress-then-answer`, init(signal));
    expect([two.headers.get("content-type"), await two.json()]).toEqual(["application/json", [JSON.parse(progress), JSON.parse(answer(1, "done"))]]);
    // A retry field is the SDK's to see: the stream stays a stream.
    const retry = await outbound(`${base}/retry`, init(signal));
    expect([retry.headers.get("content-type"), await retry.text()]).toEqual(["text/event-stream", `retry: 500\ndata: ${answer(1, "x")}\n\n`]);
  });

  it("waits past priming events for the answer", async () => {
    const signal = new AbortController().signal;
    const held1 = nextHeld();
    const primed = outbound(`${base}/primed`, init(signal));
    await held1;
    const first = held.shift()!;
    first.res.end(first.last);
    const answered = await primed;
    expect([answered.headers.get("content-type"), await answered.json()]).toEqual(["application/json", JSON.parse(answer(1, "after priming"))]);
  });

  it("hands a stream that broke after priming on as it came (the SDK resumes from its last event id)", async () => {
    const body = new PassThrough();
    const delivered = new Promise((resolve) => body.once("data", resolve));
    const reading = wholeEventStream(body);
    body.write(priming);
    await delivered;
    body.destroy(new Error("other side closed"));
    const broken = await reading;
    expect(broken && "body" in broken && broken.body instanceof ReadableStream).toBe(true);
    const reader = (broken as { body: ReadableStream<BufferSource> }).body.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe(priming);
    await expect(reader.read()).rejects.toThrow("other side closed");
  });

  it("streams what comes before the answer as it comes", async () => {
    const signal = new AbortController().signal;
    const response = await outbound(`${base}/slow`, init(signal));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    // The progress event is readable while the server still holds the answer back.
    expect((await reader.read()).value).toBe(`data: ${progress}\n\n`);
    const { res, last } = held.shift()!;
    res.end(last);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(rest).toBe(`data: ${answer(1, "later")}\n\n`);
  });

  it("reads a stream kept open after its answer as a stream", async () => {
    const response = await outbound(`${base}/open`, init(new AbortController().signal));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe(`data: ${answer(1, "kept open")}\n\n`);
    const { res, last } = held.shift()!;
    res.end(last);
    expect((await reader.read()).value).toBe(`data: ${progress}\n\n`);
  });

  it("aborts a request in flight when the signal fires", async () => {
    const controller = new AbortController();
    const stream = await outbound(`${base}/sse`, init(controller.signal));
    controller.abort(new Error("gone"));
    await expect(stream.text()).rejects.toThrow();
  });
});
