import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../cli/src/args";

// Every CLI command line the docs show runs as written: pasted into a shell with nothing else set
// (no SWITCHBOARD_URL unless the line itself uses it), it names its console and its token.
const ROOT = path.resolve(__dirname, "../..");
const DOCS = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** The words after `cli.tgz` of each command in a doc: code blocks line by line (backslash continuations joined), inline code spans whole. */
function commands(text: string): string[] {
  const spans: string[] = [];
  const prose = text.replace(/```[^\n]*\n([\s\S]*?)```/g, (_, block: string) => {
    spans.push(...block.replace(/\\\n\s*/g, " ").split("\n"));
    return "";
  });
  for (const match of prose.matchAll(/`([^`]+)`/g)) spans.push(match[1]!.replace(/\s+/g, " "));
  // A line that fetches the CLI from $SWITCHBOARD_URL has that variable set.
  return spans.flatMap((span) => [...span.matchAll(/(\$SWITCHBOARD_URL\/)?cli\.tgz((?: +[^ ]+)+)/g)].map((m) => `${m[2]!.trim()}${m[1] ? " # SWITCHBOARD_URL" : ""}`));
}

/** Placeholders as a reader fills them in; quoted words stay one word. */
function words(command: string): string[] {
  const filled = command.replace(/<console>/g, "https://console.example").replace(/…/g, "sb_token").replace(/"\$SWITCHBOARD_TOKEN"/g, "sb_token");
  return [...filled.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("the CLI lines in the docs", () => {
  const lines = DOCS.flatMap((doc) => commands(fs.readFileSync(path.join(ROOT, doc), "utf8")).map((command) => ({ doc, command })));

  it("are found (README and docs/collections.md show the CLI)", () => {
    expect(lines.map((l) => l.doc)).toEqual(expect.arrayContaining(["README.md", "docs/collections.md"]));
  });

  it.each(lines)("$doc: cli.tgz $command", ({ command }) => {
    const env: Record<string, string> = { SWITCHBOARD_TOKEN: "sb_token" };
    if (command.endsWith(" # SWITCHBOARD_URL")) env.SWITCHBOARD_URL = "https://console.example";
    const parsed = parseCommand(words(command.replace(/ # SWITCHBOARD_URL$/, "")), env);
    if (parsed.command === "run") expect(parsed.connection.console).toMatch(/^https:\/\//);
  });
});
