import { describe, expect, it } from "vitest";
import { createDecoder, encodeMessage, type Framing } from "@/agent/src/framing";

function collect(framing: Framing, max = 1024 * 1024) {
  const messages: unknown[] = [];
  const invalid: string[] = [];
  const decoder = createDecoder(framing, max, { message: (m) => messages.push(m), invalid: (r) => invalid.push(r) });
  return { decoder, messages, invalid };
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

  it("drops an oversized message, reports it, and keeps going", () => {
    const { decoder, messages, invalid } = collect(framing, 100);
    const big = { jsonrpc: "2.0", id: 9, result: "x".repeat(500) };
    const bytes = Buffer.from(encodeMessage(big, framing) + encodeMessage(sample[0], framing));
    for (let i = 0; i < bytes.length; i += 37) decoder.push(bytes.subarray(i, i + 37));
    expect(messages).toEqual([sample[0]]);
    expect(invalid.join()).toMatch(/exceeds the relay cap of 100 bytes/);
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
