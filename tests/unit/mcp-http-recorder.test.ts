import { describe, expect, it } from "vitest";
import { createHttpRecorder } from "@/lib/mcp/http";
import { McpError } from "@/lib/mcp/errors";

const json = { "content-type": "application/json" };
const answering = (body: string) => async () => new Response(body, { status: 200, headers: json });
const post = (message: object) => ({ method: "POST", body: JSON.stringify(message) });
const request = post({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo" } });
const notification = post({ jsonrpc: "2.0", method: "notifications/initialized" });

describe("the HTTP recorder's check of JSON answers", () => {
  it("hands a well-formed answer on already parsed, its text unchanged", async () => {
    const body = '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}';
    const response = await createHttpRecorder(answering(body)).fetch("http://127.0.0.1:9/mcp", request);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [] } });
    expect(await response.text()).toBe(body);
  });

  it("fails a request whose answer is malformed or not JSON-RPC, with an explained error", async () => {
    await expect(createHttpRecorder(answering("{oops")).fetch("http://127.0.0.1:9/mcp", request)).rejects.toThrow(McpError);
    await expect(createHttpRecorder(answering('{"hello":1}')).fetch("http://127.0.0.1:9/mcp", request)).rejects.toThrow(/not a JSON-RPC 2.0 message/);
  });

  it("passes on as it came what answers no request (a notification's POST)", async () => {
    const response = await createHttpRecorder(answering("{oops")).fetch("http://127.0.0.1:9/mcp", notification);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("{oops");
  });
});
