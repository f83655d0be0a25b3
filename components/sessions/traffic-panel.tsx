"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Select } from "@/components/ui/field";
import type { ServerDto } from "@/lib/domains/servers";
import type { TrafficDirection } from "@/lib/domains/traffic";
import { downloadTraffic, usePinnedTraffic, useSessionTraffic, type TrafficOrder } from "@/lib/domains/traffic/hooks";
import { SessionPicker } from "./session-picker";
import { TrafficRow } from "./traffic-row";

/**
 * Every JSON-RPC message of a session, both directions, responses paired with their request:
 * newest first (new ones arrive at the top while live), a page at a time, or from the oldest.
 */
export function TrafficPanel({ server }: { server: ServerDto }) {
  const live = server.status === "connected" ? (server.session?.id ?? null) : null;
  const [picked, setPicked] = useState("");
  const sessionId = picked || live;
  const [direction, setDirection] = useState<TrafficDirection | "">("");
  const [method, setMethod] = useState("");
  const [q, setQ] = useState("");
  const filter = { ...(direction ? { direction } : {}), ...(method.trim() ? { method: method.trim() } : {}), ...(q.trim() ? { q: q.trim() } : {}) };
  const [order, setOrder] = useState<TrafficOrder>("newest");
  const traffic = useSessionTraffic(sessionId, filter, !picked && !!live, order);
  const [exportError, setExportError] = useState<Error | null>(null);
  const messages = traffic.data?.pages.flatMap((p) => p.items) ?? [];
  const pins = usePinnedTraffic(sessionId, !picked && !!live);
  const pinned = pins.data ?? [];
  const pinnedIds = new Set(pinned.map((m) => m.id));

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
        <Button size="sm" variant="ghost" disabled={!sessionId} onClick={() => setOrder(order === "newest" ? "oldest" : "newest")}>
          {order === "newest" ? "Jump to oldest" : "Back to newest"}
        </Button>
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
      <ErrorAlert error={traffic.error ?? pins.error ?? exportError} title="Traffic" />
      {sessionId && pinned.length > 0 && (
        <ol aria-label="Pinned messages" className="flex flex-col divide-y rounded-md border border-accent/50 text-xs">
          {pinned.map((m) => (
            <TrafficRow key={m.id} message={m} serverId={server.id} pinned testId="traffic-pinned-row" />
          ))}
        </ol>
      )}
      {!sessionId ? (
        <EmptyState title="No session">Connect the server to record its traffic.</EmptyState>
      ) : messages.length === 0 && !traffic.isPending ? (
        <EmptyState title="No messages">{direction || method || q ? "Nothing matches the filter." : "Nothing was recorded for this session."}</EmptyState>
      ) : (
        <ol
          aria-label={order === "newest" ? "Messages, newest first" : "Messages, oldest first"}
          data-testid="traffic-messages"
          aria-busy={traffic.isPlaceholderData || undefined}
          className={`flex flex-col divide-y rounded-md border text-xs ${traffic.isPlaceholderData ? "opacity-60 transition-opacity" : ""}`}
        >
          {messages.map((m) => (
            <TrafficRow key={m.id} message={m} serverId={server.id} pinned={pinnedIds.has(m.id)} />
          ))}
        </ol>
      )}
      {traffic.hasNextPage && (
        <Button size="sm" busy={traffic.isFetchingNextPage} onClick={() => void traffic.fetchNextPage()} className="self-start">
          {order === "newest" ? "Older messages" : "Newer messages"}
        </Button>
      )}
    </section>
  );
}
