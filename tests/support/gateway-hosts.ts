import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

type SamplingParams = Record<string, any>;
type SamplingReply = { role: "assistant"; content: { type: "text"; text: string }; model: string };

/**
 * An MCP host (the official SDK client) with a bearer token: legacy era (initialize, sessions), or only the modern era (2026-07-28: no initialize, no session, `_meta` on every request).
 * With `sampling`, it declares the sampling capability and answers `sampling/createMessage` with it.
 */
export async function gatewayHost(
  url: string,
  token: string,
  { name = "gateway-host", era = "modern", sampling }: { name?: string; era?: "modern" | "legacy"; sampling?: (params: SamplingParams) => SamplingReply } = {},
) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: "2.0.0" }, { capabilities: sampling ? { sampling: {} } : {}, ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) });
  if (sampling) client.setRequestHandler("sampling/createMessage", async (request) => sampling(request.params as SamplingParams));
  await client.connect(transport);
  return client;
}
