"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Select } from "@/components/ui/field";
import type { ServerDto } from "@/lib/servers";
import type { TrafficDirection, TrafficMessageDto } from "@/lib/traffic";
import { downloadTraffic, useSessionTraffic } from "@/lib/traffic/hooks";
import { SessionPicker } from "./session-picker";

/** Every JSON-RPC message of a session, both directions, responses paired with their request. */
export function TrafficPanel({ server }: { server: ServerDto }) {
  const live = server.status === "connected" ? (server.session?.id ?? null) : null;
  const [picked, setPicked] = useState("");
  const sessionId = picked || live;
  const [direction, setDirection] = useState<TrafficDirection | "">("");
  const [method, setMethod] = useState("");
  const [q, setQ] = useState("");
  const filter = { ...(direction ? { direction } : {}), ...(method.trim() ? { method: method.trim() } : {}), ...(q.trim() ? { q: q.trim() } : {}) };
  const traffic = useSessionTraffic(sessionId, filter, !picked && !!live);
  const [exportError, setExportError] = useState<Error | null>(null);
  const messages = traffic.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section aria-label="Traffic" className="flex min-h-0 flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <SessionPicker serverId={server.id} currentId={live} value={picked} onChange={setPicked} />
        <Select aria-label="Direction" className="w-auto!" value={direction} onChange={(e) => setDirection(e.target.value as TrafficDirection | "")}>
          <option value="">both directions</option>
          <option value="out">→ to server</option>
          <option value="in">← from server</option>
        </Select>
        <Input aria-label="Method" placeholder="Method, e.g. tools/call" className="w-48!" value={method} onChange={(e) => setMethod(e.target.value)} />
        <Input aria-label="Search traffic" placeholder="Search bodies" className="w-48!" value={q} onChange={(e) => setQ(e.target.value)} />
        <Button
          size="sm"
          disabled={!sessionId}
          onClick={() => {
            setExportError(null);
            if (sessionId) downloadTraffic(sessionId, filter).catch((err: Error) => setExportError(err));
          }}
        >
          Export NDJSON
        </Button>
      </div>
      <ErrorAlert error={traffic.error ?? exportError} title="Traffic" />
      {!sessionId ? (
        <EmptyState title="No session">Connect the server to record its traffic.</EmptyState>
      ) : messages.length === 0 && !traffic.isPending ? (
        <EmptyState title="No messages">{direction || method || q ? "Nothing matches the filter." : "Nothing was recorded for this session."}</EmptyState>
      ) : (
        <ol aria-label="Messages" className="flex flex-col divide-y rounded-md border text-xs">
          {messages.map((m) => (
            <TrafficRow key={m.id} message={m} />
          ))}
        </ol>
      )}
      {traffic.hasNextPage && (
        <Button size="sm" busy={traffic.isFetchingNextPage} onClick={() => void traffic.fetchNextPage()} className="self-start">
          More messages
        </Button>
      )}
    </section>
  );
}

const KIND_TONE = { request: "blue", response: "green", error: "red", notification: "neutral" } as const;

function TrafficRow({ message: m }: { message: TrafficMessageDto }) {
  const [open, setOpen] = useState(false);
  return (
    <li data-testid="traffic-row" data-kind={m.kind} data-direction={m.direction}>
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
        <span className="ml-auto shrink-0 text-muted">
          {m.durationMs !== null && <span data-testid="traffic-duration">{m.durationMs.toFixed(1)} ms · </span>}
          {formatSize(m.size)}
          {m.truncated && " (cut)"}
        </span>
      </button>
      {open && <pre className="max-h-96 overflow-auto bg-raised px-3 py-2 font-mono break-all whitespace-pre-wrap">{pretty(m.body, m.truncated)}</pre>}
    </li>
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
