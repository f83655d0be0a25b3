import type { CallTiming } from "@/lib/domains/calls";
import type { Stage } from "@/lib/core/timing";
import { formatDuration } from "./format";

const CONSOLE_STAGES: { stage: Stage; label: string; meaning: string }[] = [
  { stage: "route", label: "Route", meaning: "request read and routed" },
  { stage: "auth", label: "Auth", meaning: "who is calling, and may they" },
  { stage: "validation", label: "Validation", meaning: "the body and the tool's input schema" },
  { stage: "session", label: "Session", meaning: "server, quota, credentials" },
  { stage: "connect", label: "Connection", meaning: "the server's live session, found" },
  { stage: "journal", label: "Journal", meaning: "recorded before it was sent" },
];

interface Part {
  key: string;
  label: string;
  ms: number;
  swatch: string;
}

/**
 * Where the call's time went: the console's share (its stages one tap away), the network's and
 * the server's, as a stacked bar with a legend that says it all in text too.
 */
export function CallTimingView({ timing }: { timing: CallTiming | null }) {
  if (!timing) {
    return <p className="text-xs text-muted">Not recorded: this call was made before the console kept where a call&apos;s time went.</p>;
  }
  const upstream = timing.stages.upstream ?? 0;
  const opening = openedSession(timing) ? timing.stages.connect! : 0;
  const consoleMs = Math.max(0, timing.totalMs - upstream - opening);
  const split = timing.networkMs !== null && timing.serverMs !== null;
  const parts: Part[] = [
    { key: "console", label: "Console", ms: consoleMs, swatch: "bg-accent" },
    ...(opening ? [{ key: "connect", label: "Opening the session", ms: opening, swatch: "bg-sky-500" }] : []),
    ...(split
      ? [
          { key: "network", label: "Network", ms: timing.networkMs!, swatch: "bg-amber-500" },
          { key: "server", label: "Server", ms: timing.serverMs!, swatch: "bg-emerald-500" },
        ]
      : [{ key: "upstream", label: "Server + network", ms: upstream, swatch: "bg-emerald-500" }]),
  ];
  const whole = parts.reduce((sum, p) => sum + p.ms, 0) || 1;
  const share = (ms: number) => `${Math.round((ms / whole) * 100)}%`;
  const summary = `${parts.map((p) => `${p.label} ${formatDuration(p.ms)}`).join(", ")}, of ${formatDuration(timing.totalMs)} in all`;

  return (
    <div className="flex flex-col gap-2 text-xs" data-testid="call-timing">
      <div role="img" aria-label={summary} className="flex h-3 w-full overflow-hidden rounded-full border bg-raised">
        {parts.map((p) =>
          p.ms > 0 ? <span key={p.key} className={`${p.swatch} h-full min-w-0.5`} style={{ width: share(p.ms) }} title={`${p.label}: ${formatDuration(p.ms)}`} /> : null,
        )}
      </div>
      <ul className="flex flex-col gap-1">
        {parts.map((p) => (
          <li key={p.key} data-testid={`call-timing-${p.key}`}>
            {p.key === "console" ? (
              <details className="group">
                <summary className="flex cursor-pointer items-center gap-2">
                  <Row part={p} share={share(p.ms)} />
                  <span className="text-accent group-open:hidden">stages</span>
                  <span className="hidden text-accent group-open:inline">hide</span>
                </summary>
                <ConsoleStages timing={timing} />
              </details>
            ) : (
              <div className="flex items-center gap-2">
                <Row part={p} share={share(p.ms)} />
              </div>
            )}
          </li>
        ))}
        <li className="flex items-center gap-2 border-t pt-1 font-medium">
          <span className="inline-block size-2.5" aria-hidden />
          <span className="flex-1">Total</span>
          <span className="font-mono tabular-nums" data-testid="call-timing-total">
            {formatDuration(timing.totalMs)}
          </span>
        </li>
      </ul>
      <p className="text-muted">{networkNote(timing)}</p>
    </div>
  );
}

function Row({ part, share }: { part: Part; share: string }) {
  return (
    <>
      <span className={`inline-block size-2.5 shrink-0 rounded-sm ${part.swatch}`} aria-hidden />
      <span className="flex-1">{part.label}</span>
      <span className="font-mono tabular-nums">
        {formatDuration(part.ms)} <span className="text-muted">({share})</span>
      </span>
    </>
  );
}

// Finding the live session takes microseconds; a millisecond or more means the call opened one (a handshake with the server).
const openedSession = (timing: CallTiming) => (timing.stages.connect ?? 0) >= 1;

function ConsoleStages({ timing }: { timing: CallTiming }) {
  const measured = CONSOLE_STAGES.filter((s) => timing.stages[s.stage] !== undefined && !(s.stage === "connect" && openedSession(timing)));
  const opening = openedSession(timing) ? timing.stages.connect! : 0;
  const counted = measured.reduce((sum, s) => sum + timing.stages[s.stage]!, 0) + (timing.stages.upstream ?? 0) + opening;
  const other = Math.max(0, timing.totalMs - counted);
  return (
    <dl className="mt-1 ml-4.5 grid grid-cols-[minmax(0,1fr)_max-content] gap-x-3 gap-y-0.5 border-l pl-2" data-testid="call-timing-stages">
      {measured.map((s) => (
        <div key={s.stage} className="contents">
          <dt>
            {s.label} <span className="text-muted">· {s.meaning}</span>
          </dt>
          <dd className="text-right font-mono tabular-nums">{formatDuration(timing.stages[s.stage]!)}</dd>
        </div>
      ))}
      {other >= 0.05 && (
        <div className="contents">
          <dt className="text-muted">Between stages</dt>
          <dd className="text-right font-mono tabular-nums">{formatDuration(other)}</dd>
        </div>
      )}
    </dl>
  );
}

function networkNote(timing: CallTiming): string {
  if (timing.networkSource === "ping") return "Network estimated from the session's last ping round trip; the rest of the request to the server is the server's.";
  if (timing.networkSource === "server-timing") return "Server time as the server reported it (its Server-Timing header); the rest is the network.";
  return "No ping of this session was measured yet, so the server's time and the network's are shown together.";
}
