import { describe, expect, it } from "vitest";
import { byName, namespaced, serverPrefixes } from "@/lib/gateway/names";

describe("names on the aggregated gateway endpoint", () => {
  it("orders servers by name, code unit by code unit (not by locale)", () => {
    expect(byName([{ name: "b" }, { name: "B" }, { name: "a" }, { name: "ä" }]).map((s) => s.name)).toEqual(["B", "a", "b", "ä"]);
  });

  it("normalises server names to the tool-name charset, never leaving the separator inside a prefix", () => {
    expect(serverPrefixes(["files α/β", "my__server", "_x_", "ok-1.2", "", "///"])).toEqual(["files", "my_server", "x", "ok-1.2", "server", "server_2"]);
  });

  it("gives a prefix taken by an earlier server the smallest free numeric suffix", () => {
    expect(serverPrefixes(["a b", "a-b", "a_b", "a/b", "a_b_2"])).toEqual(["a_b", "a-b", "a_b_2", "a_b_3", "a_b_2_2"]);
  });

  it("names each tool <prefix>__<tool>, suffixing tools of one server that normalise alike", () => {
    expect(namespaced("files", ["read", "read file", "read_file", "x".repeat(200)])).toEqual([
      "files__read",
      "files__read_file",
      "files__read_file_2",
      `files__${"x".repeat(121)}`,
    ]);
  });
});
