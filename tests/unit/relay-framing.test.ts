import { describe, expect, it } from "vitest";
import { createDecoder, encodeMessage, oversizedId, type Framing, type Oversized } from "@/agent/src/framing";
import { tooLargeText } from "@/lib/relay/protocol";

function collect(framing: Framing, max = 1024 * 1024) {
  const messages: unknown[] = [];
  const invalid: string[] = [];
  const oversized: Oversized[] = [];
  const decoder = createDecoder(framing, max, { message: (m) => messages.push(m), invalid: (r) => invalid.push(r), oversized: (o) => oversized.push(o) });
  return { decoder, messages, invalid, oversized };
}

const sample = [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, result: { text: "line\nbreak é 😀" } }, { jsonrpc: "2.0", method: "n" }];

describe.each(["newline", "content-length"] as const)("%s framing", (framing) => {
  it("round-trips messages split at every possible byte boundary", () => {
    const bytes = Buffer.from(sample.map((m) => encodeMessage(m, framing)).join(""));
    for (let cut = 1; cut < bytes.length; cut += 3) {
      const { decoder, messages, invalid } = collect(framing);
      decoder.push(bytes.subarray(0, cut));
      decoder.push(bytes.subarray(cut));
      expect(messages).toEqual(sample);
      expect(invalid).toEqual([]);
    }
  });

  it.each([1, 37, 5000, 1 << 20])("drops an oversized message, reports its size and id once read, and keeps going (chunks of %i)", (step) => {
    const { decoder, messages, invalid, oversized } = collect(framing, 100);
    // The SDK writes the id last; the skipped message's edges still show it.
    const big = { result: { content: [{ type: "text", text: "x".repeat(5000) }] }, jsonrpc: "2.0", id: 9 };
    const json = JSON.stringify(big);
    const bytes = Buffer.from(encodeMessage(big, framing) + encodeMessage(sample[0], framing));
    for (let i = 0; i < bytes.length; i += step) decoder.push(bytes.subarray(i, i + step));
    expect(messages).toEqual([sample[0]]);
    expect(invalid).toEqual([]);
    expect(oversized).toHaveLength(1);
    expect(oversized[0]!.bytes).toBe(json.length);
    expect(oversizedId(oversized[0]!)).toEqual({ id: 9, request: false });
  });
});

describe("the id of a skipped message", () => {
  const edges = (message: unknown): Oversized => {
    const json = JSON.stringify(message);
    return { bytes: json.length, head: json.slice(0, 1024), tail: json.slice(-1024) };
  };
  const filler = { content: [{ type: "text", text: 'x","id":666,"y":"'.repeat(400) }], nested: { id: 777 } };

  it("reads a top-level id written first or last, and never one nested or inside a string", () => {
    expect(oversizedId(edges({ jsonrpc: "2.0", id: "req-1", result: filler }))).toEqual({ id: "req-1", request: false });
    expect(oversizedId(edges({ result: filler, jsonrpc: "2.0", id: 42 }))).toEqual({ id: 42, request: false });
    expect(oversizedId(edges({ jsonrpc: "2.0", result: filler }))).toBeUndefined();
    expect(oversizedId(edges({ jsonrpc: "2.0", method: "notifications/message", params: filler }))).toBeUndefined();
    expect(oversizedId({ bytes: 9, head: "not json", tail: "at all" })).toBeUndefined();
  });

  it("tells a server's own request from an answer", () => {
    expect(oversizedId(edges({ method: "sampling/createMessage", params: filler, jsonrpc: "2.0", id: 3 }))).toEqual({ id: 3, request: true });
    expect(oversizedId(edges({ jsonrpc: "2.0", id: 3, method: "roots/list", params: filler }))).toEqual({ id: 3, request: true });
  });
});

describe("the too-large wording", () => {
  it("names the size and the cap, the size never reading as within the cap", () => {
    expect(tooLargeText("The server's answer", 18_140_000, 16 * 1024 * 1024)).toBe("The server's answer is 17.3 MiB; the relay carries at most 16 MiB per message");
    expect(tooLargeText("The request (tools/call)", 1024 * 1024 + 1, 1024 * 1024)).toBe("The request (tools/call) is 1.1 MiB; the relay carries at most 1 MiB per message");
    expect(tooLargeText("A message from the server", 150, 100)).toBe("A message from the server is 150 bytes; the relay carries at most 100 bytes per message");
  });
});

describe("newline framing", () => {
  it("never embeds a newline in an encoded message", () => {
    expect(encodeMessage(sample[1], "newline").slice(0, -1)).not.toContain("\n");
  });

  it("reports non-JSON output on stdout instead of failing", () => {
    const { decoder, messages, invalid } = collect("newline");
    decoder.push(Buffer.from('Server starting...\r\n{"jsonrpc":"2.0","id":1,"result":{}}\r\n'));
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    expect(invalid[0]).toMatch(/non-JSON output on stdout: Server starting/);
  });
});
