import { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { findCards } from "@/lib/domains/cards";
import { demoTransport } from "@/lib/domains/demo/server";

// The built-in demo server, reached the way lib/domains/sessions reaches it: an in-memory transport.
describe("the demo server", () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
  });

  async function connect() {
    client = new Client({ name: "demo-test", version: "1.0.0" });
    await client.connect(demoTransport());
    return client;
  }

  it("lists its tools, resources and prompts", async () => {
    const c = await connect();
    expect(c.getServerVersion()?.name).toBe("switchboard-demo");
    const tools = (await c.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(["add", "dice-app", "hello", "roll-dice"]);
    expect(tools.find((t) => t.name === "dice-app")?._meta).toMatchObject({ ui: { resourceUri: "ui://switchboard-demo/dice.html" } });
    expect((await c.listResources()).resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["demo://readme", "demo://dice-rules.json", "ui://switchboard-demo/dice.html"]));
    expect((await c.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(["roll-for", "welcome"]);
  });

  it("answers roll-dice with a card that passes the card schema", async () => {
    const c = await connect();
    const result = await c.callTool({ name: "roll-dice", arguments: { count: 3, sides: 6 } });
    const { rolls, total } = result.structuredContent as { rolls: number[]; total: number };
    expect(rolls).toHaveLength(3);
    expect(rolls.every((n) => n >= 1 && n <= 6)).toBe(true);
    const cards = findCards(result);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ ok: true, card: { title: `3d6: ${total}` } });
  });

  it("serves its MCP App as one self-contained mcp-app page", async () => {
    const c = await connect();
    const read = await c.readResource({ uri: "ui://switchboard-demo/dice.html" });
    const [content] = read.contents as { mimeType: string; text: string }[];
    expect(content!.mimeType).toBe("text/html;profile=mcp-app");
    expect(content!.text).toContain("ui/initialize");
    expect(content!.text).not.toMatch(/<script[^>]+src=|https?:\/\/(?!www\.w3)/);
  });

  it("refuses arguments outside the schema as a tool error", async () => {
    const c = await connect();
    const result = await c.callTool({ name: "roll-dice", arguments: { count: 50 } });
    expect(result.isError).toBe(true);
  });
});
