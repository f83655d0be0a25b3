"use client";

import Link from "next/link";
import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import type { CallDto } from "@/lib/domains/calls";
import { REDACTED } from "@/lib/core/redaction";
import { useRunCall } from "@/lib/domains/calls/hooks";
import type { TrafficMessageDto } from "@/lib/domains/traffic";
import { useSetPin } from "@/lib/domains/traffic/hooks";
import { callBodyOf, replayOf, type ReplayableRequest } from "./replay";
import { ReplayEditor } from "./replay-editor";

const KIND_TONE = { request: "blue", response: "green", error: "red", notification: "neutral" } as const;
const STATUS_TONE = { ok: "green", pending: "blue", error: "red", timeout: "red", cancelled: "neutral", interrupted: "neutral", denied: "red" } as const;

/** One message: a summary line that opens its body, with Pin, Replay and Edit and send. */
export function TrafficRow({ message: m, serverId, pinned, testId = "traffic-row" }: { message: TrafficMessageDto; serverId: string; pinned: boolean; testId?: string }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [via, setVia] = useState<"replay" | "edit">("replay");
  const replay = replayOf(m);
  const run = useRunCall();
  const pin = useSetPin(m.sessionId);

  function send(request: ReplayableRequest, how: "replay" | "edit") {
    setVia(how);
    const body = callBodyOf(request, "request" in replay && request.method === replay.request.method ? m.callId : null);
    setSendError("error" in body ? body.error : null);
    if (!("error" in body)) run.mutate({ serverId, ...body });
  }

  return (
    <li data-testid={testId} data-kind={m.kind} data-direction={m.direction} data-pinned={pinned || undefined}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex w-full items-center gap-2 px-2 py-1 text-left hover:bg-raised">
        <span aria-label={m.direction === "out" ? "to server" : "from server"} className="w-4 font-mono">
          {m.direction === "out" ? "→" : "←"}
        </span>
        <time className="shrink-0 font-mono text-muted" dateTime={m.at}>
          {new Date(m.at).toLocaleTimeString()}
        </time>
        <Badge tone={KIND_TONE[m.kind]}>{m.kind}</Badge>
        <span className="min-w-0 truncate font-mono">{m.method ?? "—"}</span>
        {m.rpcId && <span className="font-mono text-muted">#{m.rpcId}</span>}
        {pinned && <span className="text-muted">· pinned</span>}
        <span className="ml-auto shrink-0 text-muted">
          {m.durationMs !== null && <span data-testid="traffic-duration">{m.durationMs.toFixed(1)} ms · </span>}
          {formatSize(m.size)}
          {m.truncated && " (cut)"}
        </span>
      </button>
      {open && (
        <div className="flex flex-col gap-2 bg-raised px-3 py-2">
          <div role="group" aria-label="Message actions" className="flex flex-wrap items-center gap-2">
            <Button size="sm" aria-pressed={pinned} busy={pin.isPending} onClick={() => pin.mutate({ messageId: m.id, pinned: !pinned })}>
              {pinned ? "Unpin" : "Pin"}
            </Button>
            {"request" in replay ? (
              <>
                <RoleGate min="member">
                  <Button size="sm" busy={run.isPending && via === "replay"} onClick={() => send(replay.request, "replay")}>
                    Replay
                  </Button>
                </RoleGate>
                <RoleGate min="member">
                  <Button size="sm" busy={run.isPending && via === "edit"} onClick={() => setEditing(true)}>
                    Edit and send…
                  </Button>
                </RoleGate>
                {m.callId && (
                  <Link href={`/calls/${m.callId}`} className="text-accent hover:underline">
                    Its call
                  </Link>
                )}
              </>
            ) : (
              <span className="text-muted" title={`Cannot be sent again: ${replay.reason}`} data-testid="replay-unavailable">
                Cannot be sent again: {replay.reason}
              </span>
            )}
          </div>
          {"request" in replay && m.body.includes(`"${REDACTED}"`) && (
            <p className="text-muted" data-testid="replay-redacted">
              Values that look like secrets were recorded as {REDACTED} and are sent that way: use Edit and send to fill them in.
            </p>
          )}
          <ErrorAlert error={pin.error ?? run.error ?? (sendError ? new Error(sendError) : null)} title="Message" />
          {run.data && <ReplayResult call={run.data} />}
          <pre className="max-h-96 overflow-auto font-mono break-all whitespace-pre-wrap">{pretty(m.body, m.truncated)}</pre>
        </div>
      )}
      {editing && "request" in replay && (
        <ReplayEditor
          initial={replay.request}
          busy={run.isPending}
          onClose={() => setEditing(false)}
          onSend={(request) => {
            send(request, "edit");
            setEditing(false);
          }}
        />
      )}
    </li>
  );
}

/** The call a replay made: its status, a link to it, and the start of its result. */
function ReplayResult({ call }: { call: CallDto }) {
  const outcome = call.error ?? call.result;
  return (
    <div role="status" data-testid="replay-result" className="flex flex-col gap-1">
      <p className="flex items-center gap-2">
        <span>Sent as a new call:</span>
        <Badge tone={STATUS_TONE[call.status]}>{call.status}</Badge>
        <Link href={`/calls/${call.id}`} className="font-mono text-accent hover:underline">
          {call.method} {call.name}
        </Link>
      </p>
      {outcome !== null && outcome !== undefined && <pre className="max-h-40 overflow-auto font-mono break-all whitespace-pre-wrap">{JSON.stringify(outcome, null, 2).slice(0, 4000)}</pre>}
    </div>
  );
}

function pretty(body: string, truncated: boolean): string {
  if (truncated) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
