import { describe, expect, it } from "vitest";
import { matchTier, rankItems } from "@/components/palette/rank";
import type { PaletteItem } from "@/components/palette/use-palette-items";

const run = () => {};
const tool = (name: string, description = "", title?: string): PaletteItem => ({
  id: `tool:s:${name}`,
  group: "Tools",
  label: title ?? name,
  detail: "Demo",
  names: [name],
  keywords: [description],
  run,
});
const call = (id: string, name: string): PaletteItem => ({ id: `call:${id}`, group: "Recent calls", label: name, detail: "Demo · ok · 10:00", keywords: ["tools/call"], run });

// The demo server's tools as the issue saw them, and three old calls of `add`.
const ITEMS: PaletteItem[] = [
  call("1", "add"),
  call("2", "add"),
  call("3", "add"),
  tool("roll-dice", "Roll dice and add up the faces", "Roll dice"),
  tool("gzip-file-as-resource", "Compresses a file and adds it as a resource", "GZip File as resource"),
  tool("add-numbers", "Adds two numbers"),
  tool("add", "Adds two numbers"),
  tool("padded-text", "Pads text"),
  { id: "action:add-server", group: "Actions", label: "Add server", keywords: ["new", "connect", "import"], run },
];

describe("palette ranking", () => {
  it("puts the exact name first, then prefixes, and calls after every capability", () => {
    const ids = rankItems(ITEMS, "add").map((i) => i.id);
    expect(ids[0]).toBe("tool:s:add");
    expect(ids.slice(1, 3)).toEqual(["tool:s:add-numbers", "action:add-server"]);
    expect(ids.slice(-3)).toEqual(["call:1", "call:2", "call:3"]);
    // Descriptions match only by whole substrings, and rank below every name match.
    expect(ids.indexOf("tool:s:roll-dice")).toBeGreaterThan(ids.indexOf("tool:s:padded-text"));
  });

  it("matches letters only in order (cmdk's score forgives letters out of order)", () => {
    expect(matchTier(tool("roll-dice", "Rolls dice", "Roll dice (UI card)"), "add")).toBe(0);
    expect(matchTier({ id: "page:/dashboard", group: "Pages", label: "Dashboard", run }, "add")).toBe(0);
    expect(matchTier({ id: "page:/dashboard", group: "Pages", label: "Dashboard", run }, "dbd")).toBe(1);
  });

  it("never matches a description letter by letter", () => {
    expect(matchTier(tool("roll-dice", "Roll dice", "Roll dice"), "add")).toBe(0);
    expect(matchTier(tool("echo", "Echoes the input back"), "ehb")).toBe(0);
    expect(matchTier(tool("echo", "Echoes the input back"), "input back")).toBe(0.5);
  });

  it("matches a tool by its name under a title, and word starts inside names", () => {
    expect(matchTier(tool("get-sum", "", "Sum"), "get-sum")).toBe(4);
    expect(matchTier(tool("trigger-long-running-operation"), "long")).toBe(2);
    expect(matchTier(tool("trigger-long-running-operation"), "tlro")).toBe(1);
  });
});
