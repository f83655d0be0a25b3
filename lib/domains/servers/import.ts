import type { TransportMode } from "./index";

type ImportEntry =
  | { kind: "http"; name: string; url: string; transport: TransportMode; headers: Record<string, string> }
  | { kind: "stdio"; name: string; stdio: { command: string; args: string[]; cwd?: string; envNames: string[] } }
  | { kind: "invalid"; name: string; reason: string };

/**
 * Reads an `mcpServers` file as Claude Desktop, Cursor and VS Code (`servers`) write it.
 * Env values of stdio entries are dropped: they stay in the agent's local config.
 */
export function parseMcpServersConfig(text: string): ImportEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`Not valid JSON: ${(err as Error).message}`);
  }
  const root = asObject(doc);
  const servers = asObject(root?.mcpServers ?? root?.servers ?? asObject(root?.mcp)?.servers);
  if (!servers) throw new SyntaxError('Expected an object with "mcpServers" (or VS Code\'s "servers")');
  return Object.entries(servers).map(([name, value]) => toEntry(name.trim(), asObject(value)));
}

function toEntry(name: string, value: Record<string, unknown> | undefined): ImportEntry {
  if (!name || name.length > 100) return { kind: "invalid", name: name || "(empty)", reason: "Name must be 1–100 characters" };
  if (!value) return { kind: "invalid", name, reason: "Entry is not an object" };
  const url = typeof value.url === "string" ? value.url : typeof value.serverUrl === "string" ? value.serverUrl : undefined;
  if (url) {
    if (!/^https?:\/\//i.test(url)) return { kind: "invalid", name, reason: "URL must start with http:// or https://" };
    const headers = Object.fromEntries(Object.entries(asObject(value.headers) ?? {}).filter(([, v]) => typeof v === "string")) as Record<string, string>;
    const type = String(value.type ?? value.transport ?? "").toLowerCase();
    const transport: TransportMode = type === "sse" ? "sse" : type === "http" || type === "streamable-http" || type === "streamablehttp" ? "streamable-http" : "auto";
    return { kind: "http", name, url, transport, headers };
  }
  if (typeof value.command === "string" && value.command) {
    const args = Array.isArray(value.args) ? value.args.filter((a): a is string => typeof a === "string") : [];
    const cwd = typeof value.cwd === "string" ? value.cwd : undefined;
    return { kind: "stdio", name, stdio: { command: value.command, args, ...(cwd ? { cwd } : {}), envNames: Object.keys(asObject(value.env) ?? {}) } };
  }
  return { kind: "invalid", name, reason: 'Neither "url" nor "command" is set' };
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
