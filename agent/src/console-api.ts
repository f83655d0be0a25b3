import os from "node:os";
import { consoleOrigin, type Credentials } from "./credentials";

/** What the console answers to a pairing code (POST /api/v1/agents/pair). */
export interface PairResponse {
  agent: { id: string; name: string };
  token: string;
  workspace: { id: string; name: string };
}

async function call(url: string, init: RequestInit): Promise<{ status: number; body: any }> {
  // redirect: "error": a token or code never follows a redirect to another host.
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new Error(`Could not reach ${new URL(url).origin}: ${cause ?? (err as Error).message}`);
  }
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { error: { message: text.slice(0, 200) } };
  }
  return { status: res.status, body };
}

/** Exchanges a one-time pairing code for a long-lived agent token. */
export async function exchangeCode(consoleUrl: string, code: string, name: string | undefined, version: string): Promise<Credentials> {
  const origin = consoleOrigin(consoleUrl);
  const { status, body } = await call(`${origin}/api/v1/agents/pair`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code, name, hostname: os.hostname(), version, platform: process.platform }),
  });
  if (status !== 201) throw new Error(`Pairing failed (HTTP ${status}): ${body?.error?.message ?? "no details"}`);
  const res = body as PairResponse;
  return { consoleUrl: origin, agentId: res.agent.id, token: res.token, name: res.agent.name, workspace: res.workspace.name, pairedAt: new Date().toISOString() };
}

/** Asks the paired console who this agent is (checks the token). */
export async function fetchSelf(creds: Credentials): Promise<{ status: number; body: any }> {
  return call(`${creds.consoleUrl}/api/v1/agents/self`, { headers: { authorization: `Bearer ${creds.token}` } });
}

/** Tells the paired console to revoke this agent's token. */
export async function revokeSelf(creds: Credentials): Promise<{ status: number; body: any }> {
  return call(`${creds.consoleUrl}/api/v1/agents/self`, { method: "DELETE", headers: { authorization: `Bearer ${creds.token}` } });
}
