import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** An MCP host (the official SDK client) with a bearer token: legacy era (initialize, sessions), or only the modern era (2026-07-28: no initialize, no session, `_meta` on every request). */
export async function gatewayHost(url: string, token: string, { name = "gateway-host", era = "modern" }: { name?: string; era?: "modern" | "legacy" } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: "2.0.0" }, { capabilities: {}, ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) });
  await client.connect(transport);
  return client;
}
