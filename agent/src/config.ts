import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { agentHome } from "./credentials";
import { ServerNameSchema } from "../../lib/relay/protocol";

const StdioEntrySchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  framing: z.enum(["newline", "content-length"]).default("newline"),
  /** Directories the server may be given as roots (absolute, or relative to the config file). None by default. */
  roots: z.array(z.string().min(1)).max(100).default([]),
});
/** One local server the agent may run. Only this file decides what runs. */
export type ServerConfig = Omit<z.infer<typeof StdioEntrySchema>, "roots"> & { name: string; roots?: string[] };

export interface LoadedConfig {
  file: string;
  servers: Map<string, ServerConfig>;
  /** Entries that were left out, with the reason (remote URLs, malformed entries). */
  skipped: { name: string; reason: string }[];
}

export function defaultConfigFile(): string {
  return path.join(agentHome(), "servers.json");
}

/**
 * Reads `{ "mcpServers": { name: { command, args, env, cwd, framing, roots } } }` (a Claude Desktop
 * config works as is; VS Code's `servers` key too). Entries with a `url` are remote servers and
 * are skipped: add those to the console directly.
 */
export function loadConfig(file = defaultConfigFile()): LoadedConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(`No server config at ${file}. Create it with {"mcpServers": {"name": {"command": "…", "args": []}}} or pass --config <file>.`);
    }
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const root = (raw ?? {}) as { mcpServers?: unknown; servers?: unknown };
  const entries = root.mcpServers ?? root.servers;
  if (typeof entries !== "object" || entries === null || Array.isArray(entries)) {
    throw new Error(`${file} has no "mcpServers" object`);
  }
  const servers = new Map<string, ServerConfig>();
  const skipped: LoadedConfig["skipped"] = [];
  for (const [name, entry] of Object.entries(entries as Record<string, unknown>)) {
    if (!ServerNameSchema.safeParse(name).success) {
      skipped.push({ name, reason: "invalid name" });
      continue;
    }
    if (typeof entry === "object" && entry !== null && "url" in entry && !("command" in entry)) {
      skipped.push({ name, reason: "remote (url) server: add it to the console directly" });
      continue;
    }
    const parsed = StdioEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skipped.push({ name, reason: `${issue?.path.join(".") || "entry"}: ${issue?.message}` });
      continue;
    }
    const cwd = parsed.data.cwd ? path.resolve(path.dirname(file), parsed.data.cwd) : undefined;
    const roots = parsed.data.roots.map((dir) => path.resolve(path.dirname(file), dir));
    servers.set(name, { ...parsed.data, cwd, roots, name });
  }
  return { file, servers, skipped };
}
