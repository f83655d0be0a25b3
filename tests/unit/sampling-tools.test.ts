import { describe, expect, it } from "vitest";
import { checkSamplingReply, checkSamplingSequence } from "@/lib/domains/interactions";
import { validateArguments } from "@/lib/core/json-schema";

const ask = { role: "user", content: { type: "text", text: "Weather?" } };
const use = (id: string) => ({ type: "tool_use", id, name: "get_weather", input: { city: "Oslo" } });
const result = (id: string) => ({ type: "tool_result", toolUseId: id, content: [] });
const tools = [{ name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];

describe("sampling tool-use sequencing", () => {
  it("accepts tool results that answer every tool use of the previous assistant message", () => {
    const messages = [ask, { role: "assistant", content: [use("a"), use("b")] }, { role: "user", content: [result("b"), result("a")] }];
    expect(checkSamplingSequence({ messages })).toBeNull();
  });

  it("refuses missing, extra, mixed or misplaced blocks", () => {
    expect(checkSamplingSequence({ messages: [ask, { role: "assistant", content: [use("a"), use("b")] }, { role: "user", content: [result("a")] }] })).toMatch(/do not match/);
    expect(checkSamplingSequence({ messages: [ask, { role: "assistant", content: [use("a")] }, { role: "user", content: [result("a"), { type: "text", text: "x" }] }] })).toMatch(/only tool results/);
    expect(checkSamplingSequence({ messages: [ask, { role: "user", content: [result("a")] }] })).toMatch(/previous assistant/);
    expect(checkSamplingSequence({ messages: [ask, { role: "assistant", content: [use("a")] }, ask] })).toMatch(/answered by tool_result/);
    expect(checkSamplingSequence({ messages: [{ role: "user", content: use("a") }] })).toMatch(/from the assistant/);
  });
});

describe("a person's sampling reply", () => {
  it("honours toolChoice and the tool's inputSchema", () => {
    expect(checkSamplingReply({ tools }, { text: "Sunny" }, validateArguments)).toEqual([]);
    expect(checkSamplingReply({ tools, toolChoice: { mode: "required" } }, { text: "Sunny" }, validateArguments)[0].message).toMatch(/requires a tool call/);
    expect(checkSamplingReply({ tools, toolChoice: { mode: "none" } }, { toolUses: [{ name: "get_weather", input: { city: "Oslo" } }] }, validateArguments)[0].message).toMatch(/forbids/);
    expect(checkSamplingReply({ tools }, { toolUses: [{ name: "nope", input: {} }] }, validateArguments)[0].message).toMatch(/not one of the tools/);
    expect(checkSamplingReply({ tools }, { toolUses: [{ name: "get_weather", input: {} }] }, validateArguments)[0].field).toBe("toolUses.0.input/city");
    expect(checkSamplingReply({}, { toolUses: [{ name: "get_weather", input: {} }] }, validateArguments)[0].message).toMatch(/offered no tools/);
  });
});
