// The least an HTTP API in front of an MCP server can do: one SDK client session, and per request
// the body parsed, the tool called, the result written back. No authentication, no recording.
import http from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const client = new Client({ name: "bare-proxy", version: "0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.MCP_URL)));
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    try {
      const { name, arguments: args } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const result = await client.callTool({ name, arguments: args });
      const json = JSON.stringify({ result });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
      res.end(json);
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
