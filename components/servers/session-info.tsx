import type { SessionInfo } from "@/lib/domains/servers";
import { formatTime } from "@/components/calls/format";

/** What the server said about itself when the session opened. */
export function SessionDetails({ session }: { session: SessionInfo }) {
  const info = session.serverInfo;
  const rows: [string, string | null | undefined][] = [
    ["Server", info ? `${info.title ?? info.name} ${info.version ?? ""}`.trim() : null],
    ["Protocol", session.protocolVersion],
    ["Era", session.era],
    ["Negotiation", session.negotiation],
    ["Transport", session.transport],
    ["Session", session.status],
    ["Since", formatTime(session.createdAt)],
  ];
  return (
    <div className="flex flex-col gap-2">
      <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-0.5 text-xs sm:grid-cols-[repeat(3,max-content_minmax(0,1fr))]">
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted">{k}</dt>
              <dd className="truncate font-mono" title={v ?? undefined}>
                {v}
              </dd>
            </div>
          ))}
      </dl>
      {session.negotiationNote && <p className="text-xs text-muted">{session.negotiationNote}</p>}
      {session.instructions && (
        <details className="rounded-md border bg-panel text-xs">
          <summary className="cursor-pointer px-2 py-1 font-medium">Instructions</summary>
          <pre className="max-h-64 overflow-auto border-t px-2 py-1.5 font-mono">{session.instructions}</pre>
        </details>
      )}
    </div>
  );
}
