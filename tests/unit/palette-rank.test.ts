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

describe("palette ranking of the workspace's pages and work", () => {
  const page = (label: string, names?: string[]): PaletteItem => ({ id: `page:${label}`, group: "Pages", label, names, run });
  const PAGES = [page("Servers"), page("Dashboard"), page("Collections"), page("Monitors"), page("Alerts"), page("Settings"), page("Settings: API tokens", ["API tokens"]), page("Settings: Members", ["Members"])];

  it("ranks Monitors first for 'mon', and nothing unrelated", () => {
    const monitor: PaletteItem = { id: "monitor:1", group: "Monitors", label: "Weather every minute", detail: "Weather · passing", run };
    const ids = rankItems([...PAGES, monitor], "mon").map((i) => i.id);
    expect(ids).toEqual(["page:Monitors"]);
  });

  it("does not list resources whose long URI merely holds the letters, nor descriptions by part of a word", () => {
    const resource: PaletteItem = { id: "resource:s:file:///srv/data/addresses/readme.md", group: "Resources", label: "Team data", detail: "Files", names: ["file:///srv/data/shared/readme.md"], run };
    const gzip = tool("gzip-file-as-resource", "Compresses a file and adds it as a resource", "GZip File as resource");
    const ids = rankItems([...ITEMS, resource, gzip], "add").map((i) => i.id);
    expect(ids).not.toContain("tool:s:gzip-file-as-resource");
    expect(ids).not.toContain(resource.id);
    expect(matchTier(resource, "ata")).toBe(0);
  });

  it("finds collections, monitors, environments and runs by name, the run after the collection", () => {
    const items: PaletteItem[] = [
      { id: "run:r1", group: "Runs", label: "Weather smoke: last run", detail: "passed", names: ["Weather smoke", "r1"], run },
      { id: "collection:c1", group: "Collections", label: "Weather smoke", detail: "3 steps", run },
      { id: "monitor:m1", group: "Monitors", label: "Weather every minute", detail: "Weather smoke · passing", run },
      { id: "environment:e1", group: "Environments", label: "staging", detail: "environment", run },
      ...PAGES,
    ];
    expect(rankItems(items, "weather").map((i) => i.id)).toEqual(["collection:c1", "monitor:m1", "run:r1"]);
    expect(rankItems(items, "stag").map((i) => i.id)).toEqual(["environment:e1"]);
  });
});

describe("palette queries of several words", () => {
  it("match a name whose words each start with one of them", () => {
    const dark: PaletteItem = { id: "action:theme-dark", group: "Actions", label: "Theme: Dark", keywords: ["appearance", "mode"], run };
    expect(matchTier(dark, "theme dark")).toBe(2);
    expect(matchTier(dark, "dark th")).toBe(2);
    expect(matchTier(dark, "theme light")).toBe(0);
  });
});
