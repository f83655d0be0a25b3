import { describe, expect, it } from "vitest";
import { AgentFrameSchema, byteLength, ConsoleFrameSchema, decodeAgentFrame, decodeConsoleFrame, ENVELOPE_ALLOWANCE_BYTES, RELAY_PROTOCOL_VERSION } from "@/lib/relay/protocol";

/** A deterministic PRNG so that a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

function randomValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * (depth > 2 ? 5 : 8));
  switch (pick) {
    case 0: return null;
    case 1: return r() > 0.5;
    case 2: return Math.floor(r() * 1e6) - 5e5;
    case 3: return String.fromCharCode(...Array.from({ length: Math.floor(r() * 20) }, () => Math.floor(r() * 0xffff)));
    case 4: return ["hello", "open", "opened", "message", "stderr", "exit", "close", "ping", "pong", "error", "welcome"][Math.floor(r() * 11)];
    case 5: return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const keys = ["type", "session", "server", "message", "chunk", "code", "t", "version", "command", "args", "env", "cwd"];
      return Object.fromEntries(Array.from({ length: Math.floor(r() * 6) }, () => [keys[Math.floor(r() * keys.length)], randomValue(r, depth + 1)]));
    }
  }
}

describe("relay protocol", () => {
  it("accepts well-formed frames both ways", () => {
    const hello = decodeAgentFrame(JSON.stringify({ type: "hello", version: RELAY_PROTOCOL_VERSION, agent: { version: "1", hostname: "h", platform: "linux" }, servers: [{ name: "memory" }], graceMs: 60000 }));
    expect(hello.ok && hello.frame.type === "hello" && hello.frame.sessions).toEqual([]);
    const msg = decodeConsoleFrame(Buffer.from(JSON.stringify({ type: "message", session: "s1", message: { jsonrpc: "2.0", id: 1, method: "tools/list" } })));
    expect(msg.ok).toBe(true);
    expect(decodeConsoleFrame(JSON.stringify({ type: "open", session: "s1", server: "memory" })).ok).toBe(true);
  });

  it("carries the agent's cap in hello and the request id of a too-large answer in an error", () => {
    const hello = decodeAgentFrame(JSON.stringify({ type: "hello", version: RELAY_PROTOCOL_VERSION, agent: { version: "1", hostname: "h", platform: "linux" }, servers: [], graceMs: 0, maxMessageBytes: 1024 }));
    expect(hello.ok && hello.frame.type === "hello" && hello.frame.maxMessageBytes).toBe(1024);
    for (const request of [7, "req-7"]) {
      const error = decodeAgentFrame(JSON.stringify({ type: "error", session: "s1", code: "too_large", message: "The server's answer is 2 MiB; the relay carries at most 1 MiB per message", request }));
      expect(error.ok && error.frame.type === "error" && error.frame.request).toBe(request);
    }
    expect(decodeAgentFrame(JSON.stringify({ type: "error", session: "s1", code: "too_large", message: "x", request: { id: 1 } })).ok).toBe(false);
  });

  it("rejects an open frame that tries to carry a command, args, env or cwd", () => {
    for (const extra of [{ command: "sh" }, { args: ["-c", "id"] }, { env: { PATH: "/tmp" } }, { cwd: "/" }]) {
      const res = decodeConsoleFrame(JSON.stringify({ type: "open", session: "s1", server: "memory", ...extra }));
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.error).toMatchObject({ type: "error", code: "bad_frame", session: "s1" });
    }
  });

  it("refuses frames of the wrong direction, unknown types and non-JSON", () => {
    expect(decodeConsoleFrame(JSON.stringify({ type: "hello", version: 1 })).ok).toBe(false);
    expect(decodeAgentFrame(JSON.stringify({ type: "open", session: "s", server: "x" })).ok).toBe(false);
    expect(decodeAgentFrame(JSON.stringify({ type: "message", session: "s", message: { id: 1 } })).ok).toBe(false);
    const bad = decodeAgentFrame("{not json");
    expect(!bad.ok && bad.error.message).toMatch(/not valid JSON/);
  });

  it("enforces the size cap with a clear error", () => {
    const big = JSON.stringify({ type: "stderr", session: "s", chunk: "x".repeat(2000) });
    const res = decodeAgentFrame(big, 1000 - ENVELOPE_ALLOWANCE_BYTES + 100);
    expect(!res.ok && res.error).toMatchObject({ code: "too_large" });
    expect(!res.ok && res.error.message).toMatch(/exceeds the relay cap/);
  });

  it("survives thousands of random and malformed frames without throwing", () => {
    const r = rng(42);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(r);
      const text = i % 7 === 0 ? JSON.stringify(value).slice(0, Math.floor(r() * 40)) : JSON.stringify(value);
      const bytes = i % 11 === 0 ? Buffer.from(Array.from({ length: 64 }, () => Math.floor(r() * 256))) : text ?? "";
      for (const res of [decodeAgentFrame(bytes), decodeConsoleFrame(bytes)]) {
        if (res.ok) accepted++;
        else expect(["bad_frame", "too_large"]).toContain(res.error.code);
      }
    }
    expect(accepted).toBeLessThan(10000);
  });

  it("decodes message frames exactly as the schemas do (the hand-checked path included)", () => {
    const r = rng(7);
    const sessions = ["", "s", "x".repeat(128), "x".repeat(129), 5, null, undefined];
    const messages = [{ jsonrpc: "2.0", id: 1, result: {} }, { jsonrpc: "2.0", method: "m", extra: [1] }, { jsonrpc: "1.0", id: 1 }, { id: 1 }, [], null, "2.0", { jsonrpc: 2 }];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const frame: Record<string, unknown> = { type: r() < 0.9 ? "message" : "stderr" };
      const session = sessions[Math.floor(r() * sessions.length)];
      if (session !== undefined) frame.session = session;
      frame.message = r() < 0.8 ? messages[Math.floor(r() * messages.length)] : randomValue(r);
      if (r() < 0.3) frame.unknown = randomValue(r);
      const text = JSON.stringify(frame);
      for (const [decode, schema] of [[decodeAgentFrame, AgentFrameSchema], [decodeConsoleFrame, ConsoleFrameSchema]] as const) {
        const res = decode(text);
        const expected = schema.safeParse(JSON.parse(text));
        expect(res.ok).toBe(expected.success);
        if (res.ok) {
          accepted++;
          expect(res.frame).toEqual(expected.data);
        }
      }
    }
    expect(accepted).toBeGreaterThan(200);
  });

  it("measures UTF-8 sizes like Buffer does", () => {
    for (const s of ["", "abc", "é", "€", "😀", "a😀b€é"]) expect(byteLength(s)).toBe(Buffer.byteLength(s));
  });
});
