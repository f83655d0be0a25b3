/** Helpers for the interaction tests: answer the next pending server-initiated request. */
import { waitFor } from "../support/console";
import type { EventStream } from "../support/events";

type Api = <T = any>(method: string, route: string, body?: unknown) => Promise<{ status: number; body: T }>;

/** Waits for the next pending interaction event on the stream and returns the interaction. */
export async function nextPending(api: Api, events: EventStream, from: number) {
  const event = await events.next((e) => e.type === "interaction" && e.status === "pending", { from, timeoutMs: 20_000 });
  const res = await api("GET", `/api/v1/interactions/${event.interactionId as string}`);
  return res.body.interaction;
}

/** Without an event stream (nobody watching): polls the pending list until one shows up. */
export async function pollPending(api: Api, serverId: string) {
  let found: any;
  await waitFor(async () => {
    const res = await api("GET", `/api/v1/interactions?status=pending&serverId=${serverId}`);
    found = res.body.items[0];
    return !!found;
  }, 20_000);
  return found;
}

/** The text of a recorded tools/call result. */
export function resultText(call: any): string {
  return ((call?.result?.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");
}
