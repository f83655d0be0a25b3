import "server-only";
import { InMemoryTransport, McpServer, type Transport } from "@modelcontextprotocol/server";
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { z } from "zod";
import { CARD_META_KEY, type Card } from "@/lib/domains/cards";
import { DEMO_APP_HTML } from "./app-html";

export { DEMO_SERVER_NAME } from "./index";

const APP_URI = "ui://switchboard-demo/dice.html";
const README = `# The Switchboard demo server

This server runs inside the console itself: no process, no network. Try:

- **hello**: plain text back.
- **roll-dice**: a result with a UI card (its "Roll again" button calls the tool again).
- **dice-app**: the same dice, drawn by an MCP App in a sandboxed frame.
- **add**: structured output checked against an output schema.

Every call lands in History like any other server's.`;

const DiceArgs = { count: z.number().int().min(1).max(10).default(2).describe("How many dice"), sides: z.number().int().min(2).max(100).default(6).describe("Sides per die") };

function roll({ count, sides }: { count: number; sides: number }) {
  const rolls = Array.from({ length: count }, () => 1 + Math.floor(Math.random() * sides));
  const total = rolls.reduce((a, b) => a + b, 0);
  return { rolls, total, text: `Rolled ${count}d${sides}: ${rolls.join(", ")} (total ${total})` };
}

function diceCard(count: number, sides: number, rolls: number[], total: number): Card {
  return {
    version: 1,
    title: `${count}d${sides}: ${total}`,
    subtitle: "A UI card from the demo server",
    body: `Rolled **${rolls.join(" · ")}**. Cards carry a title, fields and actions next to the plain content.`,
    bodyFormat: "markdown",
    fields: [
      { label: "Dice", value: count },
      { label: "Sides", value: sides },
      { label: "Total", value: total },
    ],
    actions: [
      { type: "copy", label: "Copy total", value: String(total) },
      { type: "call-tool", label: "Roll again", tool: "roll-dice", arguments: { count, sides } },
    ],
  };
}

/** A fresh demo server: a few tools (one with a card, one with an MCP App), resources and prompts. */
function createDemoServer(): McpServer {
  const server = new McpServer(
    { name: "switchboard-demo", title: "Switchboard demo", version: "1.0.0" },
    { instructions: "A demo server built into Switchboard. Start with roll-dice (a UI card) and dice-app (an MCP App)." },
  );
  server.registerTool("hello", { title: "Say hello", description: "Greets you by name", inputSchema: { name: z.string().min(1).max(100).describe("Your name") } }, async ({ name }) => ({
    content: [{ type: "text", text: `Hello, ${name}! This answer came from the demo server inside Switchboard.` }],
  }));
  server.registerTool(
    "roll-dice",
    { title: "Roll dice (UI card)", description: "Rolls dice; the result carries a UI card with fields and actions", inputSchema: DiceArgs },
    async ({ count, sides }) => {
      const { rolls, total, text } = roll({ count, sides });
      return { content: [{ type: "text", text }], structuredContent: { rolls, total }, _meta: { [CARD_META_KEY]: diceCard(count, sides, rolls, total) } };
    },
  );
  registerAppTool(
    server,
    "dice-app",
    { title: "Roll dice (MCP App)", description: "Rolls dice and shows them in an MCP App", inputSchema: DiceArgs, _meta: { ui: { resourceUri: APP_URI } } },
    async ({ count, sides }) => {
      const { rolls, total, text } = roll({ count, sides });
      return { content: [{ type: "text", text }], structuredContent: { rolls, total } };
    },
  );
  server.registerTool(
    "add",
    {
      title: "Add numbers",
      description: "Adds two numbers; the answer is structured content checked against an output schema",
      inputSchema: { a: z.number().describe("First number"), b: z.number().describe("Second number") },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: `${a} + ${b} = ${a + b}` }], structuredContent: { sum: a + b } }),
  );
  registerAppResource(server, "dice-app", APP_URI, { description: "The dice MCP App" }, async () => ({
    contents: [{ uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, text: DEMO_APP_HTML, _meta: { ui: { prefersBorder: true } } }],
  }));
  server.registerResource("readme", "demo://readme", { title: "Read me", description: "What this demo server offers", mimeType: "text/markdown" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/markdown", text: README }],
  }));
  server.registerResource("dice-rules", "demo://dice-rules.json", { title: "Dice rules", description: "The limits the dice tools accept", mimeType: "application/json" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ count: { min: 1, max: 10, default: 2 }, sides: { min: 2, max: 100, default: 6 } }, null, 2) }],
  }));
  server.registerPrompt("welcome", { title: "Welcome", description: "A first message about this server" }, async () => ({
    messages: [{ role: "user", content: { type: "text", text: "What can the Switchboard demo server do? Try each of its tools once." } }],
  }));
  server.registerPrompt(
    "roll-for",
    { title: "Roll for something", description: "Asks for a dice roll to decide something", argsSchema: z.object({ decision: z.string().describe("What the roll decides") }) },
    async ({ decision }) => ({ messages: [{ role: "user", content: { type: "text", text: `Roll two dice with roll-dice to decide: ${decision}. Even total means yes.` } }] }),
  );
  return server;
}

/**
 * The client end of an in-memory pair whose other end a new demo server holds: no process, no
 * socket. Closing the client end closes the server with it.
 */
export function demoTransport(): Transport {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // Messages sent before the server is connected wait in the pair's queue.
  void createDemoServer().connect(serverSide).catch(() => clientSide.close());
  return clientSide;
}
