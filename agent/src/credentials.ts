import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/** Where the agent keeps its files: SWITCHBOARD_AGENT_HOME, else ~/.config/switchboard. */
export function agentHome(): string {
  return process.env.SWITCHBOARD_AGENT_HOME || path.join(os.homedir(), ".config", "switchboard");
}

export const CredentialsSchema = z.object({
  /** The console's origin, e.g. https://switchboard.example.com. The token is only ever sent here. */
  consoleUrl: z.string().url(),
  agentId: z.string(),
  token: z.string().min(20),
  name: z.string(),
  workspace: z.string().optional(),
  pairedAt: z.string(),
});
/** The agent's identity, as stored in agent.json (mode 0600). */
export type Credentials = z.infer<typeof CredentialsSchema>;

export function credentialsFile(): string {
  return path.join(agentHome(), "agent.json");
}

/** The stored credentials, or null when the agent is not paired. Throws on a damaged file. */
export function readCredentials(): Credentials | null {
  let text: string;
  try {
    text = fs.readFileSync(credentialsFile(), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  const parsed = CredentialsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${credentialsFile()} is damaged; run \`switchboard-agent unpair\` and pair again`);
  return parsed.data;
}

/** Writes the credentials atomically with mode 0600 (the directory 0700). */
export function writeCredentials(creds: Credentials): void {
  const file = credentialsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(creds, null, 2) + "\n", { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** Removes the credentials; returns whether there were any. */
export function deleteCredentials(): boolean {
  try {
    fs.unlinkSync(credentialsFile());
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** The console origin a URL belongs to (scheme, host, port); paths are ignored. */
export function consoleOrigin(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`The console URL must be http(s): ${url}`);
  return parsed.origin;
}
